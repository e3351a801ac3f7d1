// PostgreSQL's client library (libpq-dev), exposed to Swift as the CLibPQ module.
#include <libpq-fe.h>
