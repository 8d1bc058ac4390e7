#include "compiler/quant/dataset.h"

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>

namespace npurt {
namespace compiler {
namespace {

const char* Plural(size_t n, const char* one, const char* many) { return n == 1 ? one : many; }

std::string LowerExtension(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// The directory part of `path` with its trailing '/', or "" for a bare file name.
std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

std::vector<std::string> SplitBlanks(const std::string& line) {
  std::vector<std::string> fields;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

}  // namespace

bool DatasetSampleKind(const std::string& path, SampleKind* kind) {
  const std::string ext = LowerExtension(path);
  if (ext == ".npy") {
    *kind = SampleKind::kNpy;
    return true;
  }
  if (ext == ".jpg" || ext == ".jpeg" || ext == ".png" || ext == ".bmp") {
    *kind = SampleKind::kImage;
    return true;
  }
  return false;
}

Status ParseDatasetLine(const std::string& line, const std::string& base_dir, size_t num_inputs,
                        DatasetSample* sample) {
  *sample = DatasetSample();
  const std::vector<std::string> fields = SplitBlanks(line);
  if (fields.size() != num_inputs) {
    return NPURT_ERROR(kParamInvalid, "%zu %s for a model with %zu %s", fields.size(),
                       Plural(fields.size(), "path", "paths"), num_inputs, Plural(num_inputs, "input", "inputs"));
  }
  const std::string dir = base_dir.empty() || base_dir.back() == '/' ? base_dir : base_dir + "/";
  for (const std::string& field : fields) {
    SampleKind kind;
    if (!DatasetSampleKind(field, &kind)) {
      return NPURT_ERROR(kParamInvalid, "'%s' has an unknown extension (expected .jpg, .jpeg, .png, .bmp or .npy)",
                         field.c_str());
    }
    const std::string resolved = field[0] == '/' ? field : dir + field;
    struct stat st;
    if (::stat(resolved.c_str(), &st) != 0) {
      return NPURT_ERROR(kParamInvalid, "cannot read '%s': %s", resolved.c_str(), std::strerror(errno));
    }
    if (!S_ISREG(st.st_mode)) return NPURT_ERROR(kParamInvalid, "'%s' is not a file", resolved.c_str());
    sample->paths.push_back(resolved);
  }
  return Status::Ok();
}

Status ReadDatasetFile(const std::string& path, size_t num_inputs, std::vector<DatasetSample>* samples) {
  samples->clear();
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    return NPURT_ERROR(kParamInvalid, "cannot open dataset '%s': %s", path.c_str(), std::strerror(errno));
  }
  if (S_ISDIR(st.st_mode)) return NPURT_ERROR(kParamInvalid, "dataset '%s' is a directory", path.c_str());
  errno = 0;
  std::ifstream in(path);
  if (!in) {
    const int err = errno;
    return NPURT_ERROR(kParamInvalid, "cannot open dataset '%s': %s", path.c_str(),
                       err != 0 ? std::strerror(err) : "unreadable");
  }
  const std::string dir = DirectoryOf(path);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    DatasetSample sample;
    const Status s = ParseDatasetLine(line, dir, num_inputs, &sample);
    if (!s.ok()) return Status(s.code(), path + ":" + std::to_string(number) + ": " + s.message());
    sample.line = number;
    sample.file = path;
    samples->push_back(std::move(sample));
  }
  if (in.bad()) return NPURT_ERROR(kParamInvalid, "error reading dataset '%s'", path.c_str());
  if (samples->empty()) return NPURT_ERROR(kParamInvalid, "dataset '%s' has no samples", path.c_str());
  return Status::Ok();
}

}  // namespace compiler
}  // namespace npurt
