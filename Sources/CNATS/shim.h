#ifndef SCROLL_WIDGETS_NATS_SHIM_H
#define SCROLL_WIDGETS_NATS_SHIM_H

/* nats.c (Debian: libnats-dev), the client NATSClient wraps: plain functions and enums. */
#include <nats/nats.h>

#endif
