/* SPDX-License-Identifier: Apache-2.0 */
#ifndef SATCHEL_CNETLINK_H
#define SATCHEL_CNETLINK_H
/* Netlink (rtnetlink) message walking for Swift.

   The kernel's NLMSG_* and RTA_* helpers are function-like macros, which Swift cannot import.
   Each function here is one of those macros with its lengths made explicit and checked, so a
   truncated or hostile buffer ends the walk instead of reading past its end. Nothing else lives
   in this shim: sockets, requests and their meaning are in Swift (Transport/Reachability). */

#include <stddef.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_link.h>
#include <linux/if_addr.h>

#ifdef __cplusplus
extern "C" {
#endif

/* NLMSG_ALIGN(length). */
size_t satchel_nlmsg_align(size_t length);
/* NLMSG_LENGTH(payload): a message header plus `payload` bytes. */
size_t satchel_nlmsg_length(size_t payload);
/* NLMSG_OK: whether a whole message starts at `message` within `remaining` bytes. */
int satchel_nlmsg_ok(const struct nlmsghdr *message, size_t remaining);
/* NLMSG_NEXT: the message after `message`; `*remaining` is reduced by the bytes skipped. */
const struct nlmsghdr *satchel_nlmsg_next(const struct nlmsghdr *message, size_t *remaining);
/* NLMSG_DATA: the payload after the header. */
const void *satchel_nlmsg_data(const struct nlmsghdr *message);
/* NLMSG_PAYLOAD(message, 0): the payload's length in bytes. */
size_t satchel_nlmsg_payload_length(const struct nlmsghdr *message);

/* RTA_ALIGN(length). */
size_t satchel_rta_align(size_t length);
/* RTA_LENGTH(payload): an attribute header plus `payload` bytes. */
size_t satchel_rta_length(size_t payload);
/* RTA_OK: whether a whole attribute starts at `attribute` within `remaining` bytes. */
int satchel_rta_ok(const struct rtattr *attribute, size_t remaining);
/* RTA_NEXT: the attribute after `attribute`; `*remaining` is reduced by the bytes skipped. */
const struct rtattr *satchel_rta_next(const struct rtattr *attribute, size_t *remaining);
/* RTA_DATA: the attribute's payload. */
const void *satchel_rta_data(const struct rtattr *attribute);
/* RTA_PAYLOAD: the attribute's payload length in bytes. */
size_t satchel_rta_payload_length(const struct rtattr *attribute);

#ifdef __cplusplus
}
#endif
#endif
