/* peer_ctypes.c: plain C functions that the ctypes peer of the Python benchmark calls. */
#include <stdint.h>

void peer_nop(void) {}
int64_t peer_add_one(int64_t x) { return x + 1; }
double peer_f3(double a, double b, double c) { return a; }
int64_t peer_take_str(const char* s) { return s[0]; }
int64_t peer_take_ptr(void* p) { return p != 0; }
const char* peer_ret_str(void) { return "a short str"; }
int64_t peer_sum_array(const int64_t* data, int64_t n) {
  int64_t s = 0;
  for (int64_t i = 0; i < n; ++i) s += data[i];
  return s;
}
int64_t peer_call_cb(int64_t (*cb)(void)) { return cb(); }
