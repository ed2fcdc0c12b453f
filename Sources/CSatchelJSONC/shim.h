/* SPDX-License-Identifier: Apache-2.0 */
#ifndef SATCHEL_CJSONC_SHIM_H
#define SATCHEL_CJSONC_SHIM_H
#include <json-c/json.h>
#endif
