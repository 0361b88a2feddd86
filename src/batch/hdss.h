/* hdss.h - the HDSS scheduler's declarations are public: include/peerwave_batch.h. */
#ifndef PW_HDSS_H
#define PW_HDSS_H
#include "peerwave_batch.h"
#endif
