// Schema of the trajectory store: ordered forward migrations recorded in the
// `schema_version` table. To change the schema, append a migration to the
// list in schema.cpp (never edit a released one) and bump kSchemaVersion.
#pragma once

#include "common/result.h"
#include "trajectories/database.h"

namespace pf::traj {

//! The newest schema this binary knows.
inline constexpr int kSchemaVersion = 5;

//! Connection settings: foreign keys on, busy timeout; writers also switch the
//! file to WAL with synchronous=NORMAL (see schema.cpp for the trade-off).
Status configure_connection(Database& db, bool writer);

//! 0 for an empty database; an error for a database that is not a store.
Result<int> read_schema_version(Database& db);

//! Applies the missing migrations, each in its own transaction. A database
//! newer than kSchemaVersion is refused with a message naming both versions.
Status migrate(Database& db);

//! The refusal message for a database newer than this binary.
Error newer_schema_error(const Database& db, int version);

}  // namespace pf::traj
