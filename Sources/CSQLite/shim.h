// The system SQLite (libsqlite3-dev), exposed to Swift as the CSQLite module.
#include <sqlite3.h>
