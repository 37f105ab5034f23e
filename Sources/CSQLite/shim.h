#ifndef SCROLL_WIDGETS_SQLITE_SHIM_H
#define SCROLL_WIDGETS_SQLITE_SHIM_H

/*
 * SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import:
 * binding text with it makes SQLite copy the bytes before the call returns.
 */
#include <sqlite3.h>

static inline sqlite3_destructor_type rs_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
