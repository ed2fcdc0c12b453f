/* SPDX-License-Identifier: Apache-2.0 */
#include "CSatchelNetlink.h"

#include <limits.h>

/* The macros compare against int; a size above INT_MAX is clipped (netlink buffers are far smaller). */
static int clip(size_t length) { return length > INT_MAX ? INT_MAX : (int)length; }

size_t satchel_nlmsg_align(size_t length) { return NLMSG_ALIGN(length); }

size_t satchel_nlmsg_length(size_t payload) { return NLMSG_LENGTH(payload); }

int satchel_nlmsg_ok(const struct nlmsghdr *message, size_t remaining) {
    int length = clip(remaining);
    return message != NULL && NLMSG_OK(message, length);
}

const struct nlmsghdr *satchel_nlmsg_next(const struct nlmsghdr *message, size_t *remaining) {
    size_t step = NLMSG_ALIGN(message->nlmsg_len);
    if (step >= *remaining) {
        *remaining = 0;
        return message;
    }
    *remaining -= step;
    return (const struct nlmsghdr *)((const char *)message + step);
}

const void *satchel_nlmsg_data(const struct nlmsghdr *message) { return NLMSG_DATA(message); }

size_t satchel_nlmsg_payload_length(const struct nlmsghdr *message) {
    return message->nlmsg_len < NLMSG_HDRLEN ? 0 : (size_t)NLMSG_PAYLOAD(message, 0);
}

size_t satchel_rta_align(size_t length) { return RTA_ALIGN(length); }

size_t satchel_rta_length(size_t payload) { return RTA_LENGTH(payload); }

int satchel_rta_ok(const struct rtattr *attribute, size_t remaining) {
    int length = clip(remaining);
    return attribute != NULL && RTA_OK(attribute, length);
}

const struct rtattr *satchel_rta_next(const struct rtattr *attribute, size_t *remaining) {
    size_t step = RTA_ALIGN(attribute->rta_len);
    if (step >= *remaining) {
        *remaining = 0;
        return attribute;
    }
    *remaining -= step;
    return (const struct rtattr *)((const char *)attribute + step);
}

const void *satchel_rta_data(const struct rtattr *attribute) { return RTA_DATA(attribute); }

size_t satchel_rta_payload_length(const struct rtattr *attribute) {
    return attribute->rta_len < RTA_LENGTH(0) ? 0 : (size_t)RTA_PAYLOAD(attribute);
}
