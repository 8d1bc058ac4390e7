/*
 * c_check.h - the failure counter of the C test programs (c99_end_to_end.c,
 * board_apps.c): CHECK(cond, printf-style message) reports a failed condition
 * with its line and counts it; main returns non-zero when g_failures > 0.
 * Include it in one translation unit only.
 */
#ifndef NPURT_TESTS_API_C_CHECK_H_
#define NPURT_TESTS_API_C_CHECK_H_

#include <stdio.h>

static int g_failures = 0;

#define CHECK(cond, ...)                                         \
    do {                                                         \
        if (!(cond)) {                                           \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                        \
            fprintf(stderr, "\n");                               \
            ++g_failures;                                        \
        }                                                        \
    } while (0)

#endif /* NPURT_TESTS_API_C_CHECK_H_ */
