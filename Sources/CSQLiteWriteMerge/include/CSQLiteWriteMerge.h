// Pass-through SQLite VFSes over "unix" and "unix-excl" that write each WAL frame (its 24-byte header
// and its page) with one system call where SQLite's WAL writer makes two.
#ifndef STREAMD_CSQLITE_WRITE_MERGE_H
#define STREAMD_CSQLITE_WRITE_MERGE_H

/// The name of the wrapper of SQLite's "unix" VFS.
#define STREAMD_WRITE_MERGE_UNIX_VFS "streamd-unix"
/// The name of the wrapper of SQLite's "unix-excl" VFS.
#define STREAMD_WRITE_MERGE_UNIX_EXCL_VFS "streamd-unix-excl"

/// Registers both wrapper VFSes (never as the default VFS) the first time it is called; later calls
/// return the first call's result. Returns SQLITE_OK, SQLITE_NOTFOUND when SQLite has no "unix" or
/// "unix-excl" VFS to wrap, or the error of sqlite3_initialize / sqlite3_vfs_register.
/// Thread-safe: any number of threads may call it at once.
int streamd_write_merge_register(void);

#endif
