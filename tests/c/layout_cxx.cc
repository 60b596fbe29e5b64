// The layout test compiled as C++: same facts, anonymous unions, and strict
// function-pointer type checks.
#include "test_layout.c"
