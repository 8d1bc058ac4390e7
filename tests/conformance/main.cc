// npurt_conformance: runs the ONNX backend test models (Debian libonnx-testdata:
// node, pytorch-converted, pytorch-operator, simple) through npurt's ONNX
// converter and the RKNN C API, and compares with the shipped outputs.
//
// Every model ends up passed, failed or unsupported:
//   unsupported  the converter refuses an op it does not implement, or the model
//                is outside npurt's scope (sequence/optional/map values, string
//                or complex tensors, training-mode ops);
//   failed       any other conversion error, a C API error, a crash or timeout,
//                or outputs (values, shape or type) that differ from the expected
//                ones beyond the ONNX backend-test tolerances (rtol 1e-3,
//                atol 1e-7, NaN == NaN; integer and bool outputs exactly);
//   passed       every test_data_set_* matches;
//   beyond fp16  (--float-dtype float16 only) an output the fp16 model cannot
//                match because float32's values leave fp16's range
//                (case_runner.h Outcome::kBeyondFp16), listed by name.
// npurt has no float64: DOUBLE inputs are fed as FLOAT32 and DOUBLE outputs
// compared in float32 (--verbose notes it per model).
//
// Models run in forked worker processes (--jobs of them, one model at a time
// each), so a crash or hang fails that model only; --no-fork runs everything
// in this process (for a debugger). Output: one line per failing model, then
// per suite
//   SUITE: N passed, M failed, K unsupported[, B beyond fp16's range]
// Exit status 1 when any model failed, a worker ended badly at shutdown (a
// leak report in the sanitizer build) or a suite directory is missing.
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <google/protobuf/stubs/common.h>

#include "runtime/kernels/dispatch.h"
#include "tests/common/isa_skip_log.h"
#include "tests/conformance/case_runner.h"

#ifndef NPURT_ONNX_TESTDATA_DIR
#error "NPURT_ONNX_TESTDATA_DIR must be defined by the build (CMake cache variable of the same name)"
#endif

namespace conformance {
namespace {

namespace fs = std::filesystem;

const char* const kAllSuites[] = {"node", "pytorch-converted", "pytorch-operator", "simple"};

struct Options {
  std::string data_dir = NPURT_ONNX_TESTDATA_DIR;
  std::vector<std::string> suites;
  std::vector<std::string> filters;
  bool verbose = false;
  bool list_unsupported = false;
  bool fork = true;
  int jobs = 0;
  int timeout_s = 300;
  Tolerance tolerance;
  std::string cpu_target;  // empty: the runtime's own choice
};

struct Job {
  std::string suite;
  std::string name;
  std::string dir;
  CaseResult result;
  std::string captured;  // the worker's stdout + stderr for this model (runtime log lines, sanitizer reports)
};

void Usage(FILE* f) {
  std::fprintf(f,
               "usage: npurt_conformance [options]\n"
               "  --suite NAME         node, pytorch-converted, pytorch-operator, simple (repeatable;\n"
               "                       default: all four)\n"
               "  --filter SUBSTRING   only tests whose name (or suite/name) contains it (repeatable: any)\n"
               "  --verbose            a line per model, notes, and failing models' captured output\n"
               "  --list-unsupported   the op types that made models unsupported, with counts\n"
               "  --data-dir DIR       test data root (default: %s)\n"
               "  --jobs N             models run in parallel (default: number of CPUs)\n"
               "  --timeout SECONDS    per model (default 300)\n"
               "  --rtol X, --atol X   element-wise float tolerance (default: the ONNX backend tests'\n"
               "                       1e-3 and 1e-7)\n"
               "  --min-cosine X       compare float outputs as whole tensors instead: cosine >= X and\n"
               "  --max-abs-rel Y      max abs diff <= Y * max|expected| (real models; prints both)\n"
               "  --min-within-step F  also for outputs the model stores quantized (QDQ models): at least\n"
               "                       the fraction F of the values within one quantization step of the\n"
               "                       expected (prints the exact and within-one-step fractions)\n"
               "  --float-dtype T      float32 (default: ONNX's numbers) or float16 (convert as npurt\n"
               "                       convert does by default: fp16 storage, as the NPU)\n"
               "  --no-fork            run models in this process, one at a time\n"
               "  --cpu-target T       run the kernels of T (ref, portable, avx2, avx512, avx512_vnni) as\n"
               "                       NPURT_CPU_TARGET does; exit status 77 (skipped) when this CPU lacks T\n",
               NPURT_ONNX_TESTDATA_DIR);
}

bool ParseArgs(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "npurt_conformance: %s needs a value\n", a.c_str());
        return false;
      }
      *out = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--suite") {
      if (!value(&v)) return false;
      o->suites.push_back(v);
    } else if (a == "--filter") {
      if (!value(&v)) return false;
      o->filters.push_back(v);
    } else if (a == "--data-dir") {
      if (!value(&o->data_dir)) return false;
    } else if (a == "--jobs" || a == "-j") {
      if (!value(&v)) return false;
      o->jobs = std::atoi(v.c_str());
    } else if (a == "--timeout") {
      if (!value(&v)) return false;
      o->timeout_s = std::atoi(v.c_str());
    } else if (a == "--rtol" || a == "--atol" || a == "--min-cosine" || a == "--max-abs-rel" ||
               a == "--min-within-step") {
      if (!value(&v)) return false;
      char* end = nullptr;
      const double x = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !(x >= 0.0)) {
        std::fprintf(stderr, "npurt_conformance: %s needs a non-negative number, got '%s'\n", a.c_str(), v.c_str());
        return false;
      }
      Tolerance& t = o->tolerance;
      (a == "--rtol" ? t.rtol : a == "--atol" ? t.atol : a == "--min-cosine" ? t.min_cosine
       : a == "--max-abs-rel" ? t.max_abs_rel : t.min_within_step) = x;
    } else if (a == "--float-dtype") {
      if (!value(&v)) return false;
      if (v != "float16" && v != "float32") {
        std::fprintf(stderr, "npurt_conformance: --float-dtype is float16 or float32, got '%s'\n", v.c_str());
        return false;
      }
      o->tolerance.float16 = v == "float16";
    } else if (a == "--verbose" || a == "-v") {
      o->verbose = true;
    } else if (a == "--list-unsupported") {
      o->list_unsupported = true;
    } else if (a == "--cpu-target") {
      if (!value(&o->cpu_target)) return false;
    } else if (a == "--no-fork") {
      o->fork = false;
    } else if (a == "--help" || a == "-h") {
      Usage(stdout);
      std::exit(0);
    } else {
      std::fprintf(stderr, "npurt_conformance: unknown argument '%s'\n", a.c_str());
      Usage(stderr);
      return false;
    }
  }
  if (o->suites.empty()) o->suites.assign(std::begin(kAllSuites), std::end(kAllSuites));
  if (o->jobs <= 0) o->jobs = std::max(1u, std::thread::hardware_concurrency());
  if (o->timeout_s <= 0) o->timeout_s = 300;
  return true;
}

// ------------------------------------------------------------ result protocol
// A worker serializes a CaseResult as: outcome letter, '\n', unsupported, '\n', notes joined by
// '\x1f', '\n', reason (rest). Fields never contain '\n' (it is replaced).

std::string OneLine(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\x1f', ' ');
  return s;
}

std::string Serialize(const CaseResult& r) {
  std::string s;
  s += r.outcome == Outcome::kPassed ? 'P' : r.outcome == Outcome::kUnsupported ? 'U'
       : r.outcome == Outcome::kBeyondFp16 ? 'B' : 'F';
  s += '\n' + OneLine(r.unsupported) + '\n';
  for (size_t i = 0; i < r.notes.size(); ++i) s += (i ? "\x1f" : "") + OneLine(r.notes[i]);
  s += '\n' + OneLine(r.reason);
  return s;
}

bool Deserialize(const std::string& s, CaseResult* r) {
  if (s.size() < 2 || s[1] != '\n') return false;
  const char k = s[0];
  if (k != 'P' && k != 'U' && k != 'F' && k != 'B') return false;
  r->outcome = k == 'P' ? Outcome::kPassed : k == 'U' ? Outcome::kUnsupported
               : k == 'B' ? Outcome::kBeyondFp16 : Outcome::kFailed;
  const size_t a = s.find('\n', 2);
  if (a == std::string::npos) return false;
  const size_t b = s.find('\n', a + 1);
  if (b == std::string::npos) return false;
  r->unsupported = s.substr(2, a - 2);
  r->notes.clear();
  std::stringstream notes(s.substr(a + 1, b - a - 1));
  for (std::string n; std::getline(notes, n, '\x1f');) {
    if (!n.empty()) r->notes.push_back(n);
  }
  r->reason = s.substr(b + 1);
  return true;
}

void WriteAll(int fd, const std::string& s) {
  size_t off = 0;
  while (off < s.size()) {
    const ssize_t n = write(fd, s.data() + off, s.size() - off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

// The last runtime error line ("E RKNN: [time] api: message"), without the timestamp.
std::string LastRuntimeError(const std::string& captured) {
  std::string last;
  std::stringstream in(captured);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("E RKNN:", 0) != 0) continue;
    const size_t ts = line.find("] ");
    last = ts == std::string::npos ? line.substr(8) : line.substr(ts + 2);
  }
  return last;
}

// The one-line gist of a sanitizer report in `captured`, or "".
std::string SanitizerSummary(const std::string& captured) {
  std::string first_error;
  std::stringstream in(captured);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("SUMMARY: ", 0) == 0) return line.substr(9);
    if (first_error.empty() &&
        (line.find("runtime error:") != std::string::npos || line.find("ERROR: ") != std::string::npos)) {
      first_error = line;
    }
  }
  return first_error;
}

// ------------------------------------------------------------ worker pool
// Workers are forked once per suite and run one model at a time: the parent
// sends a job index ("N\n") on the command pipe, the worker answers with a
// frame "<bytes>\n<serialized result>" on the result pipe. Its stdout and
// stderr go to a per-worker memfd that it truncates before each model, so the
// parent can read a model's log lines even after a crash. A worker that dies
// or overruns the timeout fails its model only and is replaced. At the end the
// workers exit normally, so the sanitizer build's leak checker runs in them.

struct Worker {
  pid_t pid = -1;
  int cmd_fd = -1;      // parent writes job indices
  int result_fd = -1;   // parent reads result frames
  int capture_fd = -1;  // the worker's stdout + stderr
  std::string buffer;   // unparsed result bytes
  long job = -1;        // running job, -1 when idle
  std::chrono::steady_clock::time_point deadline;
};

bool ReadLine(int fd, std::string* line) {
  line->clear();
  char c;
  for (;;) {
    const ssize_t n = read(fd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    if (c == '\n') return true;
    line->push_back(c);
  }
}

[[noreturn]] void WorkerMain(const std::vector<Job>& jobs, const Tolerance& tolerance, int cmd_fd, int result_fd, int capture_fd) {
  signal(SIGPIPE, SIG_DFL);
  dup2(capture_fd, 1);
  dup2(capture_fd, 2);
  close(capture_fd);
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  for (std::string line; ReadLine(cmd_fd, &line);) {
    const size_t index = std::strtoul(line.c_str(), nullptr, 10);
    if (ftruncate(1, 0) != 0 || lseek(1, 0, SEEK_SET) < 0) {
      // Keep going: the log of this model is just not separated from the previous one.
    }
    const CaseResult result = index < jobs.size() ? RunCase(jobs[index].dir, tolerance) : CaseResult();
    const std::string payload = Serialize(result);
    WriteAll(result_fd, std::to_string(payload.size()) + "\n" + payload);
  }
  close(result_fd);
  std::exit(0);  // a normal exit: the leak checker of the sanitizer build runs here
}

bool SpawnWorker(const std::vector<Job>& jobs, const Tolerance& tolerance, const std::vector<Worker>& others,
                 Worker* w) {
  int cmd[2], res[2];
  if (pipe(cmd) != 0) return false;
  if (pipe(res) != 0) {
    close(cmd[0]);
    close(cmd[1]);
    return false;
  }
  const int capture = static_cast<int>(syscall(SYS_memfd_create, "npurt_conformance", 0u));
  if (capture < 0) {
    for (int fd : {cmd[0], cmd[1], res[0], res[1]}) close(fd);
    return false;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {cmd[0], cmd[1], res[0], res[1], capture}) close(fd);
    return false;
  }
  if (pid == 0) {
    close(cmd[1]);
    close(res[0]);
    for (const Worker& o : others) {  // the other workers' pipes must see EOF when the parent closes them
      for (int fd : {o.cmd_fd, o.result_fd, o.capture_fd}) {
        if (fd >= 0) close(fd);
      }
    }
    WorkerMain(jobs, tolerance, cmd[0], res[1], capture);
  }
  close(cmd[0]);
  close(res[1]);
  *w = Worker();
  w->pid = pid;
  w->cmd_fd = cmd[1];
  w->result_fd = res[0];
  w->capture_fd = capture;
  return true;
}

std::string ReadCapture(int fd) {
  std::string out;
  char buf[65536];
  off_t off = 0;
  while (out.size() < (1u << 20)) {
    const ssize_t n = pread(fd, buf, sizeof(buf), off);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
    off += n;
  }
  return out;
}

// Waits for a worker process (exiting or killed), reads its captured output
// into `captured` (when not null) and returns its wait status.
int Reap(Worker* w, std::string* captured = nullptr) {
  int status = 0;
  while (w->pid > 0 && waitpid(w->pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (captured != nullptr && w->capture_fd >= 0) *captured = ReadCapture(w->capture_fd);
  for (int fd : {w->cmd_fd, w->result_fd, w->capture_fd}) {
    if (fd >= 0) close(fd);
  }
  w->pid = -1;
  w->cmd_fd = w->result_fd = w->capture_fd = -1;
  return status;
}

std::string StatusText(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = strsignal(sig);
    return "crashed with signal " + std::to_string(sig) + " (" + (name ? name : "?") + ")";
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended abnormally";
}

// The job's result from a complete frame (`payload`), or its death.
void FinishJob(Job& job, const std::string* payload, const std::string& death) {
  CaseResult res;
  if (payload == nullptr || !Deserialize(*payload, &res)) {
    res = CaseResult();
    res.reason = payload == nullptr ? death : "the worker sent a malformed result";
    const std::string summary = SanitizerSummary(job.captured);
    if (!summary.empty()) res.reason += ": " + summary;
  } else if (res.outcome == Outcome::kFailed && res.reason.rfind("rknn_", 0) == 0) {
    const std::string err = LastRuntimeError(job.captured);
    if (!err.empty()) res.reason += ": " + err;
  }
  job.result = res;
}

// Runs the jobs; returns the problems of workers that ended badly at
// shutdown (a leak report in the sanitizer build), one line each.
std::vector<std::string> RunForked(std::vector<Job>& jobs, const Options& o) {
  std::vector<std::string> shutdown_problems;
  const size_t n_workers = std::min(jobs.size(), static_cast<size_t>(o.jobs));
  std::vector<Worker> workers;
  size_t next = 0, done = 0;
  auto assign = [&](Worker& w) {
    while (next < jobs.size()) {
      const std::string cmd = std::to_string(next) + "\n";
      if (write(w.cmd_fd, cmd.data(), cmd.size()) == static_cast<ssize_t>(cmd.size())) {
        w.job = static_cast<long>(next++);
        w.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(o.timeout_s);
        return;
      }
      return;  // the worker is gone; its EOF is handled by the poll loop
    }
  };
  auto replace = [&](size_t i) {  // after Reap(&workers[i])
    Worker w;
    if (next < jobs.size() && SpawnWorker(jobs, o.tolerance, workers, &w)) {
      workers[i] = w;
      assign(workers[i]);
    }
  };
  for (size_t i = 0; i < n_workers; ++i) {
    Worker w;
    if (!SpawnWorker(jobs, o.tolerance, workers, &w)) {
      std::perror("npurt_conformance: cannot start a worker process");
      std::exit(2);
    }
    workers.push_back(w);
    assign(workers.back());
  }
  char buf[65536];
  while (done < jobs.size()) {
    std::vector<pollfd> fds;
    std::vector<size_t> owner;
    for (size_t i = 0; i < workers.size(); ++i) {
      if (workers[i].pid > 0 && workers[i].job >= 0) {
        fds.push_back({workers[i].result_fd, POLLIN, 0});
        owner.push_back(i);
      }
    }
    if (fds.empty()) {  // no worker could be started for the remaining jobs
      for (; next < jobs.size(); ++next, ++done) {
        jobs[next].result = CaseResult();
        jobs[next].result.reason = std::string("cannot start a worker process: ") + std::strerror(errno);
      }
      break;
    }
    const int ready = poll(fds.data(), fds.size(), 500);
    if (ready < 0 && errno != EINTR) {
      std::perror("npurt_conformance: poll");
      std::exit(2);
    }
    for (size_t k = 0; k < fds.size(); ++k) {
      if ((fds[k].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      Worker& w = workers[owner[k]];
      const ssize_t got = read(w.result_fd, buf, sizeof(buf));
      if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (got > 0) {
        w.buffer.append(buf, static_cast<size_t>(got));
        const size_t nl = w.buffer.find('\n');
        if (nl == std::string::npos) continue;
        const size_t len = std::strtoul(w.buffer.c_str(), nullptr, 10);
        if (w.buffer.size() < nl + 1 + len) continue;
        const std::string payload = w.buffer.substr(nl + 1, len);
        w.buffer.erase(0, nl + 1 + len);
        Job& job = jobs[static_cast<size_t>(w.job)];
        job.captured = ReadCapture(w.capture_fd);
        FinishJob(job, &payload, "");
        ++done;
        w.job = -1;
        assign(w);
      } else {  // EOF or error: the worker died while running its job
        Job& job = jobs[static_cast<size_t>(w.job)];
        const int status = Reap(&w, &job.captured);
        FinishJob(job, nullptr, StatusText(status));
        ++done;
        replace(owner[k]);
      }
    }
    const auto now = std::chrono::steady_clock::now();
    for (size_t i = 0; i < workers.size(); ++i) {
      Worker& w = workers[i];
      if (w.pid <= 0 || w.job < 0 || now <= w.deadline) continue;
      kill(w.pid, SIGKILL);  // our own worker, by its pid
      Job& job = jobs[static_cast<size_t>(w.job)];
      Reap(&w, &job.captured);
      FinishJob(job, nullptr, "timed out after " + std::to_string(o.timeout_s) + " s (killed)");
      ++done;
      replace(i);
    }
  }
  // Shut down: EOF on the command pipe ends each worker normally.
  for (Worker& w : workers) {
    if (w.pid <= 0) continue;
    close(w.cmd_fd);
    w.cmd_fd = -1;
    while (read(w.result_fd, buf, sizeof(buf)) > 0) {
    }
    std::string captured;
    const int status = Reap(&w, &captured);
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
      std::string line = "a worker process " + StatusText(status) + " at shutdown";
      const std::string summary = SanitizerSummary(captured);
      if (!summary.empty()) line += ": " + summary;
      shutdown_problems.push_back(line);
    }
  }
  return shutdown_problems;
}

// ------------------------------------------------------------ reporting

bool Matches(const Job& j, const std::vector<std::string>& filters) {
  if (filters.empty()) return true;
  const std::string full = j.suite + "/" + j.name;
  for (const std::string& f : filters) {
    if (full.find(f) != std::string::npos) return true;
  }
  return false;
}

void PrintCaptured(const std::string& captured) {
  if (captured.empty()) return;
  std::stringstream in(captured);
  for (std::string line; std::getline(in, line);) std::printf("    | %s\n", line.c_str());
}

}  // namespace

int Main(int argc, char** argv) {
  Options o;
  if (!ParseArgs(argc, argv, &o)) return 2;
  signal(SIGPIPE, SIG_IGN);  // a worker that died must not take the runner with it
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (!o.cpu_target.empty()) {
    npurt::CpuTarget target;
    if (!npurt::ParseCpuTarget(o.cpu_target.c_str(), &target)) {
      std::fprintf(stderr, "npurt_conformance: --cpu-target '%s' is no CPU target\n", o.cpu_target.c_str());
      return 2;
    }
    const npurt::CpuTarget detected = npurt::DetectedCpuTarget();
    if (detected < target) {
      std::printf("cpu target %s: skipped, this CPU has %s\n", o.cpu_target.c_str(), npurt::CpuTargetName(detected));
      npurt::LogIsaSkip(target, "npurt_conformance --cpu-target " + o.cpu_target);
      return npurt::kSkippedForLackOfIsa;
    }
    // Before librknnrt reads it (once per process): here and in every worker forked from here.
    setenv("NPURT_CPU_TARGET", o.cpu_target.c_str(), 1);
    std::printf("cpu target %s\n", o.cpu_target.c_str());
  }

  bool any_failed = false;
  // op type -> suite -> count
  std::map<std::string, std::map<std::string, int>> unsupported_ops;
  std::vector<std::string> suite_lines;
  for (const std::string& suite : o.suites) {
    const fs::path root = fs::path(o.data_dir) / suite;
    std::error_code ec;
    if (!fs::is_directory(root, ec)) {
      std::printf("%s: test data directory %s is missing\n", suite.c_str(), root.c_str());
      any_failed = true;
      continue;
    }
    std::vector<Job> jobs;
    for (const fs::directory_entry& e : fs::directory_iterator(root)) {
      if (!e.is_directory()) continue;
      Job j;
      j.suite = suite;
      j.name = e.path().filename().string();
      j.dir = e.path().string();
      if (Matches(j, o.filters)) jobs.push_back(std::move(j));
    }
    std::sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) { return a.name < b.name; });

    std::vector<std::string> worker_problems;
    if (o.fork) {
      worker_problems = RunForked(jobs, o);
    } else {
      for (Job& j : jobs) j.result = RunCase(j.dir, o.tolerance);
    }

    int passed = 0, failed = 0, unsupported = 0, beyond_fp16 = 0;
    for (const Job& j : jobs) {
      const CaseResult& r = j.result;
      switch (r.outcome) {
        case Outcome::kPassed:
          ++passed;
          if (o.verbose) std::printf("PASS %s/%s\n", suite.c_str(), j.name.c_str());
          break;
        case Outcome::kUnsupported:
          ++unsupported;
          ++unsupported_ops[r.unsupported][suite];
          if (o.verbose) {
            std::printf("UNSUPPORTED %s/%s: %s\n", suite.c_str(), j.name.c_str(), r.unsupported.c_str());
          }
          break;
        case Outcome::kBeyondFp16:
          ++beyond_fp16;
          std::printf("BEYOND-FP16 %s/%s: %s\n", suite.c_str(), j.name.c_str(), r.reason.c_str());
          break;
        case Outcome::kFailed:
          ++failed;
          std::printf("FAIL %s/%s: %s\n", suite.c_str(), j.name.c_str(), r.reason.c_str());
          if (o.verbose) PrintCaptured(j.captured);
          break;
      }
      if (o.verbose) {
        for (const std::string& n : r.notes) std::printf("    note: %s\n", n.c_str());
      }
    }
    for (const std::string& p : worker_problems) {
      std::printf("FAIL %s: %s (rerun with --no-fork to find the model)\n", suite.c_str(), p.c_str());
      any_failed = true;
    }
    if (failed > 0) any_failed = true;
    if (o.tolerance.float16) {
      std::printf("%s: %d passed, %d failed, %d unsupported, %d beyond fp16's range\n", suite.c_str(), passed, failed,
                  unsupported, beyond_fp16);
    } else {
      std::printf("%s: %d passed, %d failed, %d unsupported\n", suite.c_str(), passed, failed, unsupported);
    }
  }

  if (o.list_unsupported) {
    std::vector<std::pair<int, std::string>> order;
    for (const auto& kv : unsupported_ops) {
      int total = 0;
      for (const auto& s : kv.second) total += s.second;
      order.push_back({-total, kv.first});
    }
    std::sort(order.begin(), order.end());
    std::printf("unsupported op types (models):\n");
    for (const auto& e : order) {
      std::string per_suite;
      for (const auto& s : unsupported_ops[e.second]) {
        per_suite += (per_suite.empty() ? "" : ", ") + s.first + " " + std::to_string(s.second);
      }
      std::printf("  %-36s %4d  (%s)\n", e.second.c_str(), -e.first, per_suite.c_str());
    }
  }
  google::protobuf::ShutdownProtobufLibrary();
  return any_failed ? 1 : 0;
}

}  // namespace conformance

int main(int argc, char** argv) { return conformance::Main(argc, argv); }
