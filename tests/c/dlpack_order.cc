// dlpack_order.c compiled as C++.
#include "dlpack_order.c"
