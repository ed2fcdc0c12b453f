/* SPDX-License-Identifier: Apache-2.0 */
#ifndef SATCHEL_CCURL_H
#define SATCHEL_CCURL_H
/* Typed wrappers for libcurl's variadic calls, which Swift cannot make.

   curl_easy_setopt, curl_multi_setopt, curl_share_setopt and curl_easy_getinfo take their argument through "...";
   each wrapper here fixes the argument's type (long, curl_off_t, pointer or one of the callback
   types) and forwards it unchanged. Nothing else lives in this shim. */

#include <curl/curl.h>

#ifdef __cplusplus
extern "C" {
#endif

CURLcode satchel_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode satchel_curl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode satchel_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode satchel_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode satchel_curl_easy_setopt_blob(CURL *handle, CURLoption option, struct curl_blob *value);
CURLcode satchel_curl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback function);
CURLcode satchel_curl_easy_setopt_read_function(CURL *handle, curl_read_callback function);
CURLcode satchel_curl_easy_setopt_seek_function(CURL *handle, curl_seek_callback function);
CURLcode satchel_curl_easy_setopt_progress_function(CURL *handle, curl_xferinfo_callback function);
CURLcode satchel_curl_easy_setopt_prerequest_function(CURL *handle, curl_prereq_callback function);

CURLcode satchel_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode satchel_curl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value);
CURLcode satchel_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);
CURLcode satchel_curl_easy_getinfo_certificates(CURL *handle, struct curl_certinfo **value);
CURLcode satchel_curl_easy_getinfo_list(CURL *handle, CURLINFO info, struct curl_slist **value);

CURLMcode satchel_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLSHcode satchel_curl_share_setopt_long(CURLSH *share, CURLSHoption option, long value);
CURLSHcode satchel_curl_share_setopt_pointer(CURLSH *share, CURLSHoption option, void *value);
CURLSHcode satchel_curl_share_setopt_lock_function(CURLSH *share, curl_lock_function function);
CURLSHcode satchel_curl_share_setopt_unlock_function(CURLSH *share, curl_unlock_function function);

#ifdef __cplusplus
}
#endif
#endif
