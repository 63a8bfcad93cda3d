/* SPDX-License-Identifier: Zlib */
/* patrol/api.h - what the shared libraries export.
 *
 * The libraries are compiled with hidden visibility: a function is exported from
 * libpatrol_core.so / libpatrol_render.so only when a public header declares it, between
 * PT_API_BEGIN and PT_API_END (each public header wraps its declarations so). Everything
 * else, the pt__ helpers and every internal header's functions, stays inside the library.
 * tests/check-exports compares the exported symbols with the headers' declarations.
 * For a program that includes the headers the two macros change nothing.
 */
#ifndef PATROL_API_H
#define PATROL_API_H

#if defined(__GNUC__) || defined(__clang__)
#define PT_API_BEGIN _Pragma("GCC visibility push(default)")
#define PT_API_END _Pragma("GCC visibility pop")
#else
#define PT_API_BEGIN
#define PT_API_END
#endif

#endif
