/* SPDX-License-Identifier: Apache-2.0 */
#ifndef SATCHEL_CFILE_H
#define SATCHEL_CFILE_H
/* File calls that Glibc declares only under _GNU_SOURCE, which Swift's Glibc module does not
   define. Nothing else lives in this shim: downloads and their durability are in Swift
   (Transport/Download). */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Starts writeback of the bytes offset..<offset+length of descriptor to the disk without
   waiting for it (sync_file_range with SYNC_FILE_RANGE_WRITE): a later fsync then has little
   left to write. Returns 0, or -1 with errno set (for example EINVAL on file systems that do
   not support it, ESPIPE for a pipe); failure changes nothing, the fsync still flushes all. */
int satchel_file_start_writeback(int descriptor, int64_t offset, int64_t length);

#ifdef __cplusplus
}
#endif

#endif
