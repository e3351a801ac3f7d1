// The file a write-merging VFS hands SQLite: the wrapped VFS's file, and the write held back.
#ifndef STREAMD_MERGE_FILE_H
#define STREAMD_MERGE_FILE_H

#include <sqlite3.h>

enum { HELD_CAPACITY = 32 };

typedef struct MergeFile {
    sqlite3_file base;
    // This file's method table: the wrapper's, at the wrapped file's iVersion (at most 3), so SQLite
    // calls only the methods the wrapped file has.
    sqlite3_io_methods methods;
    // The wrapped VFS's file, allocated right after this struct.
    sqlite3_file *real;
    int isWAL;
    int heldAmount;
    sqlite3_int64 heldOffset;
    unsigned char held[HELD_CAPACITY];
    // Held bytes followed by the next write's, for the merged call; grows to the largest merge.
    unsigned char *merged;
    sqlite3_int64 mergedCapacity;
} MergeFile;

// The wrapped file follows MergeFile, at an offset rounded up to 8 bytes so it stays aligned.
#define MERGE_FILE_HEADER ((int)((sizeof(MergeFile) + 7) & ~(size_t)7))

// Opens `name` through `real` into the file after `base`'s MergeFile, and gives `base` the merging
// methods when the open gave the wrapped file methods of its own.
int streamd_merge_file_open(sqlite3_vfs *real, const char *name, sqlite3_file *base, int flags, int *outFlags);

#endif
