#include "runtime/core/log.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <sys/time.h>

namespace npurt {
namespace {

int LevelFromEnvironment() {
  const char* env = std::getenv("RKNN_LOG_LEVEL");
  if (env == nullptr || *env == '\0') return 0;
  char* end = nullptr;
  long value = std::strtol(env, &end, 10);
  if (*end != '\0' || value < 0) return 0;
  return value > 5 ? 5 : static_cast<int>(value);
}

std::atomic<int>& LevelStorage() {
  static std::atomic<int> level(LevelFromEnvironment());
  return level;
}

std::mutex g_sink_mutex;
LogCallback g_callback = nullptr;
void* g_user_data = nullptr;

char LevelLetter(LogLevel level) {
  switch (level) {
    case LogLevel::kError: return 'E';
    case LogLevel::kWarning: return 'W';
    case LogLevel::kInfo: return 'I';
    default: return 'D';
  }
}

}  // namespace

LogLevel GetLogLevel() { return static_cast<LogLevel>(LevelStorage().load(std::memory_order_relaxed)); }
void SetLogLevel(LogLevel level) { LevelStorage().store(static_cast<int>(level)); }

void SetLogCallback(LogCallback callback, void* user_data) {
  std::lock_guard<std::mutex> lock(g_sink_mutex);
  g_callback = callback;
  g_user_data = user_data;
}

void LogPrintf(LogLevel level, const char* fmt, ...) {
  char message[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(message, sizeof(message), fmt, args);
  va_end(args);

  timeval tv{};
  gettimeofday(&tv, nullptr);
  tm local{};
  localtime_r(&tv.tv_sec, &local);
  char line[1100];
  std::snprintf(line, sizeof(line), "%c RKNN: [%02d:%02d:%02d.%03d] %s", LevelLetter(level), local.tm_hour,
                local.tm_min, local.tm_sec, static_cast<int>(tv.tv_usec / 1000), message);

  std::lock_guard<std::mutex> lock(g_sink_mutex);
  if (g_callback != nullptr) {
    g_callback(level, line, g_user_data);
  } else {
    std::fprintf(stderr, "%s\n", line);
  }
}

}  // namespace npurt
