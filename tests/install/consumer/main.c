/* An application built against an installed npurt (pkg-config or CMake). */
#include <stdio.h>

#include "rknn_api.h"

int main(void) {
  rknn_input_output_num num;
  int ret = rknn_query(0, RKNN_QUERY_IN_OUT_NUM, &num, sizeof(num));
  if (ret != RKNN_ERR_CTX_INVALID) {
    fprintf(stderr, "expected RKNN_ERR_CTX_INVALID, got %d\n", ret);
    return 1;
  }
  printf("installed librknnrt answers: %d\n", ret);
  return 0;
}
