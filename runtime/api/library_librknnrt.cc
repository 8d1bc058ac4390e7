#include "runtime/api/api_library.h"

namespace npurt {
namespace api {

extern const Library kLibrary = Library::kRknnrt;

}  // namespace api
}  // namespace npurt
