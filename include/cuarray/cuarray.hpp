// Umbrella header of the cuarray C++ API.
#pragma once

#include "cuarray/array.hpp"
#include "cuarray/creation.hpp"
#include "cuarray/device.hpp"
#include "cuarray/dtype.hpp"
#include "cuarray/elementwise_funcs.hpp"
#include "cuarray/errors.hpp"
#include "cuarray/event.hpp"
#include "cuarray/kernel.hpp"
#include "cuarray/memory.hpp"
#include "cuarray/shape.hpp"
#include "cuarray/sorting.hpp"
#include "cuarray/stream.hpp"
#include "cuarray/transfer.hpp"
#include "cuarray/ufunc.hpp"
#include "cuarray/version.hpp"
