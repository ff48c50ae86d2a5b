#!/usr/bin/python3
"""Offline check of deploy/k8s/: the manifests are consistent with each other
and with passforge, and the commands they run work.

No cluster is needed: (1) structure — an Indexed batch/v1 Job whose
`completions` equals PASSFORGE_SHARDS, GPUs requested, every mounted volume
defined, the claim and config map defined in storage.yaml, the merge Job
reading the directory the shards write (k8s-<PASSFORGE_JOB_NAME>); (2)
behaviour — each pod's command is run here as Kubernetes would run it (the
pod's env, JOB_COMPLETION_INDEX set per index, /runs and /config mapped to a
temporary directory, the config map's run.toml as the config) with the
built-in replay endpoint in compile-only mode, then the merge Job's command;
the merged store must hold every episode once. Exit 77 (skipped) without
PyYAML (Debian python3-yaml).

usage: k8s_manifest_test.py BUILD_DIR
"""
import os
import sqlite3
import subprocess
import sys
import tempfile

try:
    import yaml
except ImportError:
    print("SKIPPED: PyYAML not installed (Debian: python3-yaml)")
    sys.exit(77)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
K8S = os.path.join(REPO, "deploy", "k8s")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def load(name):
    with open(os.path.join(K8S, name)) as f:
        return [d for d in yaml.safe_load_all(f) if d]


def env_of(container):
    return {e["name"]: e.get("value") for e in container.get("env", [])}


def volumes_ok(job, defined):
    spec = job["spec"]["template"]["spec"]
    names = {v["name"]: v for v in spec.get("volumes", [])}
    for c in spec["containers"]:
        for m in c.get("volumeMounts", []):
            check(m["name"] in names, f"{job['metadata']['name']}: mount {m['name']} has no volume")
    for v in names.values():
        if "persistentVolumeClaim" in v:
            claim = v["persistentVolumeClaim"]["claimName"]
            check(("PersistentVolumeClaim", claim) in defined, f"claim {claim} not in storage.yaml")
        if "configMap" in v:
            cm = v["configMap"]["name"]
            check(("ConfigMap", cm) in defined, f"config map {cm} not in storage.yaml")


def main():
    build = os.path.abspath(sys.argv[1])
    passforge = os.path.join(build, "passforge")
    storage = load("storage.yaml")
    defined = {(d["kind"], d["metadata"]["name"]) for d in storage}
    (run_job,) = load("passforge-job.yaml")
    (merge_job,) = load("merge-job.yaml")
    for job in (run_job, merge_job):
        check(job["apiVersion"] == "batch/v1" and job["kind"] == "Job", "not a batch/v1 Job")
        check(job["spec"]["template"]["spec"].get("restartPolicy") in ("Never", "OnFailure"),
              "a Job's pods need restartPolicy Never or OnFailure")
        volumes_ok(job, defined)

    spec = run_job["spec"]
    (container,) = spec["template"]["spec"]["containers"]
    env = env_of(container)
    check(spec.get("completionMode") == "Indexed", "the run Job must be Indexed")
    check(str(spec["completions"]) == env.get("PASSFORGE_SHARDS"),
          f"completions {spec['completions']} != PASSFORGE_SHARDS {env.get('PASSFORGE_SHARDS')}")
    check("nvidia.com/gpu" in container["resources"]["limits"], "no GPU requested")
    cmd = container["command"]
    check(cmd[:2] == ["passforge", "run"] and "--shard" in cmd and
          cmd[cmd.index("--shard") + 1] == "env", "the pod must run `passforge run --shard env`")
    run_dir = "/runs/k8s-" + env["PASSFORGE_JOB_NAME"]
    merge_cmd = merge_job["spec"]["template"]["spec"]["containers"][0]["command"]
    check(run_dir in " ".join(merge_cmd), f"the merge Job does not read {run_dir}")
    if failures:
        return 1

    # Behaviour: the pods' commands, here.
    config_text = next(d for d in storage if d["kind"] == "ConfigMap")["data"]["run.toml"]
    with tempfile.TemporaryDirectory(prefix="pf-k8s-") as tmp:
        os.makedirs(os.path.join(tmp, "config"))
        with open(os.path.join(tmp, "config", "run.toml"), "w") as f:
            f.write(config_text)

        def mapped(args):
            out = []
            for a in args:
                a = a.replace("/config/", tmp + "/config/").replace("/runs", tmp + "/runs")
                out.append(passforge if a == "passforge" else a)
            return out

        small = ["--set", 'run.tasks=["neg-cat-mul-add-6a5c9e","add-softmax-dropout-a73f2b"]',
                 "--set", "run.samples_per_task=3", "--set", "run.concurrency=2",
                 "--set", "evaluator.compile_only=true", "--set", "endpoint.base_url=",
                 "--set", "endpoint.model="]
        shards = int(spec["completions"])
        for index in range(shards):
            pod_env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
            pod_env.update({k: v for k, v in env.items() if v is not None and not k.startswith("OPENAI_")})
            pod_env["JOB_COMPLETION_INDEX"] = str(index)
            p = subprocess.run(mapped(cmd) + small, cwd=REPO, env=pod_env, capture_output=True,
                               text=True, timeout=300)
            check(p.returncode == 0, f"pod {index} exited {p.returncode}: {p.stderr[-2000:]}")
            check(f"shard {index} of {shards} (kubernetes)" in p.stdout, f"pod {index}: {p.stdout[-500:]}")
        shell = merge_cmd[-1].replace("passforge ", passforge + " ").replace("/runs", tmp + "/runs")
        p = subprocess.run(["/bin/sh", "-c", shell], cwd=REPO, capture_output=True, text=True,
                           timeout=300)
        check(p.returncode == 0, f"merge exited {p.returncode}: {p.stderr[-2000:]}")
        db = sqlite3.connect(os.path.join(tmp + run_dir, "passforge.db"))
        rows = db.execute("SELECT task_id, sample_index FROM episodes").fetchall()
        check(len(rows) == 6 and len(set(rows)) == 6, f"merged episodes: {rows}")
    if failures:
        return 1
    print(f"PASS: {shards} pods' commands ran as shards, merged to {len(rows)} episodes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
