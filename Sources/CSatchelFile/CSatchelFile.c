/* SPDX-License-Identifier: Apache-2.0 */
#define _GNU_SOURCE
#include "CSatchelFile.h"

#include <fcntl.h>

int satchel_file_start_writeback(int descriptor, int64_t offset, int64_t length) {
    return sync_file_range(descriptor, (off64_t)offset, (off64_t)length, SYNC_FILE_RANGE_WRITE);
}
