// One logger for the whole runtime. RKNN_LOG_LEVEL (0-5) selects what is written:
// 0 errors (default), 1 warnings, 2 info, 3 debug, 4 per-layer info (slows
// rknn_run), 5 also dumps every layer's outputs as .npy into RKNN_DUMP_DIR.
// Lines look like the vendor's: "E RKNN: [16:10:15.123] message".
// Nothing is printed below the level; a callback can replace stderr.
#pragma once

namespace npurt {

enum class LogLevel : int { kError = 0, kWarning = 1, kInfo = 2, kDebug = 3, kLayer = 4, kDump = 5 };

using LogCallback = void (*)(LogLevel level, const char* line, void* user_data);

// Level from RKNN_LOG_LEVEL, read once; SetLogLevel overrides it.
LogLevel GetLogLevel();
void SetLogLevel(LogLevel level);
inline bool LogEnabled(LogLevel level) { return static_cast<int>(level) <= static_cast<int>(GetLogLevel()); }

// Replaces the stderr sink (nullptr restores it). Used by tests to capture lines.
void SetLogCallback(LogCallback callback, void* user_data);

void LogPrintf(LogLevel level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

}  // namespace npurt

#define NPURT_LOG(level, ...)                                               \
  do {                                                                     \
    if (::npurt::LogEnabled(::npurt::LogLevel::level)) ::npurt::LogPrintf(::npurt::LogLevel::level, __VA_ARGS__); \
  } while (0)
