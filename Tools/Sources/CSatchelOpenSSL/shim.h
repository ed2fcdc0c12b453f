/* SPDX-License-Identifier: Apache-2.0 */
#ifndef SATCHEL_COPENSSL_SHIM_H
#define SATCHEL_COPENSSL_SHIM_H
/* The system's libcrypto (OpenSSL 3, Debian's libssl-dev): keys, certificates and PEM for the
 * fixture server's throwaway TLS identity. */
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#endif
