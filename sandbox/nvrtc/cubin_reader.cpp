#include "sandbox/nvrtc/cubin_reader.h"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <map>

namespace pf::nvrtc {
namespace {

// NVIDIA ELF extensions (as printed by cuobjdump -elf).
constexpr unsigned char kStoCudaEntry = 0x10;
constexpr uint8_t kEifmtNval = 0x01;  // attribute without a value (4-byte record)
constexpr uint8_t kEifmtBval = 0x02;  // 1-byte value in the record
constexpr uint8_t kEifmtHval = 0x03;  // 2-byte value in the record
constexpr uint8_t kEifmtSval = 0x04;  // 2-byte size, then that many bytes
constexpr uint8_t kEiattrFrameSize = 0x11;
constexpr uint8_t kEiattrKparamInfo = 0x17;
constexpr uint8_t kEiattrRegcount = 0x2f;

Error bad(const std::string& why) {
  return make_error(ErrorCode::internal, "malformed cubin: " + why);
}

template <typename T>
bool read_at(std::string_view img, size_t off, T& out) {
  if (off > img.size() || sizeof(T) > img.size() - off) return false;
  std::memcpy(&out, img.data() + off, sizeof(T));
  return true;
}

struct Section {
  std::string name;
  Elf64_Shdr hdr;
};

// One .nv.info record: attribute and (for SVAL) its payload.
struct Attribute {
  uint8_t attr;
  std::string_view data;
};

Result<std::vector<Attribute>> read_attributes(std::string_view img, const Elf64_Shdr& sh) {
  std::vector<Attribute> out;
  if (sh.sh_offset > img.size() || sh.sh_size > img.size() - sh.sh_offset)
    return bad("section out of range");
  std::string_view s = img.substr(sh.sh_offset, sh.sh_size);
  size_t p = 0;
  while (p + 4 <= s.size()) {
    uint8_t fmt = static_cast<uint8_t>(s[p]);
    uint8_t attr = static_cast<uint8_t>(s[p + 1]);
    if (fmt == kEifmtSval) {
      uint16_t size = 0;
      std::memcpy(&size, s.data() + p + 2, 2);
      if (p + 4 + size > s.size()) return bad(".nv.info record out of range");
      out.push_back({attr, s.substr(p + 4, size)});
      p += 4 + size;
    } else if (fmt == kEifmtNval || fmt == kEifmtBval || fmt == kEifmtHval) {
      out.push_back({attr, s.substr(p + 2, 2)});
      p += 4;
    } else {
      return bad(".nv.info record with unknown format " + std::to_string(fmt));
    }
  }
  return out;
}

}  // namespace

Result<std::vector<cuda::KernelInfo>> read_cubin_kernels(std::string_view img) {
  Elf64_Ehdr eh;
  if (!read_at(img, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
    return bad("not a 64-bit little-endian ELF image");
  }
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shstrndx >= eh.e_shnum) {
    return bad("bad section header table");
  }
  std::vector<Elf64_Shdr> raw(eh.e_shnum);
  for (size_t i = 0; i < raw.size(); ++i) {
    if (!read_at(img, eh.e_shoff + i * sizeof(Elf64_Shdr), raw[i]))
      return bad("section header out of range");
  }
  auto str_at = [&](const Elf64_Shdr& tab, uint64_t off) -> Result<std::string> {
    if (tab.sh_offset > img.size() || tab.sh_size > img.size() - tab.sh_offset ||
        off >= tab.sh_size) {
      return bad("string out of range");
    }
    std::string_view s = img.substr(tab.sh_offset + off, tab.sh_size - off);
    size_t end = s.find('\0');
    if (end == std::string_view::npos) return bad("unterminated string");
    return std::string(s.substr(0, end));
  };
  std::vector<Section> sections;
  std::map<std::string, size_t> by_name;
  for (size_t i = 0; i < raw.size(); ++i) {
    PF_ASSIGN(std::string name, str_at(raw[eh.e_shstrndx], raw[i].sh_name));
    by_name[name] = i;
    sections.push_back({std::move(name), raw[i]});
  }
  auto symtab_it = by_name.find(".symtab");
  if (symtab_it == by_name.end()) return std::vector<cuda::KernelInfo>{};
  const Elf64_Shdr& symtab = raw[symtab_it->second];
  if (symtab.sh_link >= raw.size() || symtab.sh_entsize != sizeof(Elf64_Sym))
    return bad("bad symbol table");
  const Elf64_Shdr& strtab = raw[symtab.sh_link];

  // Registers and frame size per symbol index, from the module-wide .nv.info.
  std::map<uint32_t, int> regs, frame;
  if (auto it = by_name.find(".nv.info"); it != by_name.end()) {
    PF_ASSIGN(auto attrs, read_attributes(img, raw[it->second]));
    for (const auto& a : attrs) {
      if ((a.attr == kEiattrRegcount || a.attr == kEiattrFrameSize) && a.data.size() == 8) {
        uint32_t sym = 0, value = 0;
        std::memcpy(&sym, a.data.data(), 4);
        std::memcpy(&value, a.data.data() + 4, 4);
        (a.attr == kEiattrRegcount ? regs : frame)[sym] = static_cast<int>(value);
      }
    }
  }

  std::vector<cuda::KernelInfo> kernels;
  const size_t count = symtab.sh_size / sizeof(Elf64_Sym);
  for (size_t i = 0; i < count; ++i) {
    Elf64_Sym sym;
    if (!read_at(img, symtab.sh_offset + i * sizeof(Elf64_Sym), sym))
      return bad("symbol out of range");
    if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || (sym.st_other & kStoCudaEntry) == 0) continue;
    cuda::KernelInfo k;
    PF_ASSIGN(k.name, str_at(strtab, sym.st_name));
    if (auto r = regs.find(static_cast<uint32_t>(i)); r != regs.end()) k.registers = r->second;
    if (auto f = frame.find(static_cast<uint32_t>(i)); f != frame.end()) k.local_bytes = f->second;
    k.static_smem_bytes = 0;
    if (auto s = by_name.find(".nv.shared." + k.name); s != by_name.end()) {
      k.static_smem_bytes = static_cast<long long>(raw[s->second].sh_size);
    }
    if (auto info = by_name.find(".nv.info." + k.name); info != by_name.end()) {
      PF_ASSIGN(auto attrs, read_attributes(img, raw[info->second]));
      std::vector<std::pair<uint16_t, cuda::KernelParam>> params;
      for (const auto& a : attrs) {
        if (a.attr != kEiattrKparamInfo || a.data.size() != 12) continue;
        uint16_t ordinal = 0, offset = 0;
        uint32_t flags = 0;
        std::memcpy(&ordinal, a.data.data() + 4, 2);
        std::memcpy(&offset, a.data.data() + 6, 2);
        std::memcpy(&flags, a.data.data() + 8, 4);
        cuda::KernelParam p;
        p.offset = offset;
        p.size = (flags >> 18) & 0x3fff;
        params.emplace_back(ordinal, p);
      }
      std::sort(params.begin(), params.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      for (size_t j = 0; j < params.size(); ++j) {
        if (params[j].first != j)
          return bad("kernel " + k.name + " has non-contiguous parameter ordinals");
        k.params.push_back(params[j].second);
      }
    }
    kernels.push_back(std::move(k));
  }
  return kernels;
}

}  // namespace pf::nvrtc
