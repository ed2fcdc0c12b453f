/* SPDX-License-Identifier: Apache-2.0 */
#include "CSatchelCurl.h"

CURLcode satchel_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode satchel_curl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode satchel_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode satchel_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode satchel_curl_easy_setopt_blob(CURL *handle, CURLoption option, struct curl_blob *value) {
    return curl_easy_setopt(handle, option, value);
}

CURLcode satchel_curl_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback function) {
    return curl_easy_setopt(handle, option, function);
}

CURLcode satchel_curl_easy_setopt_read_function(CURL *handle, curl_read_callback function) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, function);
}

CURLcode satchel_curl_easy_setopt_seek_function(CURL *handle, curl_seek_callback function) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, function);
}

CURLcode satchel_curl_easy_setopt_progress_function(CURL *handle, curl_xferinfo_callback function) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, function);
}

CURLcode satchel_curl_easy_setopt_prerequest_function(CURL *handle, curl_prereq_callback function) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, function);
}

CURLcode satchel_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode satchel_curl_easy_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode satchel_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode satchel_curl_easy_getinfo_list(CURL *handle, CURLINFO info, struct curl_slist **value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLcode satchel_curl_easy_getinfo_certificates(CURL *handle, struct curl_certinfo **value) {
    return curl_easy_getinfo(handle, CURLINFO_CERTINFO, value);
}

CURLMcode satchel_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLSHcode satchel_curl_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
    return curl_share_setopt(share, option, value);
}

CURLSHcode satchel_curl_share_setopt_pointer(CURLSH *share, CURLSHoption option, void *value) {
    return curl_share_setopt(share, option, value);
}

CURLSHcode satchel_curl_share_setopt_lock_function(CURLSH *share, curl_lock_function function) {
    return curl_share_setopt(share, CURLSHOPT_LOCKFUNC, function);
}

CURLSHcode satchel_curl_share_setopt_unlock_function(CURLSH *share, curl_unlock_function function) {
    return curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, function);
}
