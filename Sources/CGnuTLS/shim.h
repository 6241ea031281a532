#include <gnutls/crypto.h>
