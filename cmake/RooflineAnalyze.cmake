# Static summaries for every target of a CMake project, without changing
# the project: configure it with
#
#   cmake -S . -B build -DCMAKE_CXX_COMPILER=clang++-22 \
#     -DCMAKE_PROJECT_INCLUDE=<roofline>/lib/cmake/Roofline/RooflineAnalyze.cmake \
#     -DROOFLINE_SUMMARY_DIR=$PWD/roofline [-DROOFLINE_PLATFORM=h100-sxm] \
#     [-DROOFLINE_WARN=memory-bound] [-DROOFLINE_ASSUME=n=4096]
#
# CMake includes this file right after the project's project() call: its
# compiler checks have run already (they never see the plugin), and the
# flags are compile options only (a link never sees them, so nothing is
# reported as an unused argument). (From a build tree:
# -DCMAKE_PROJECT_INCLUDE=<roofline build>/RooflineAnalyze.cmake.)
if(NOT TARGET Roofline::plugin)
  find_package(Roofline REQUIRED PATHS "${CMAKE_CURRENT_LIST_DIR}" NO_DEFAULT_PATH)
endif()
if(NOT ROOFLINE_SUMMARY_DIR)
  set(ROOFLINE_SUMMARY_DIR "${CMAKE_BINARY_DIR}/roofline")
endif()
_roofline_check_compiler("${PROJECT_NAME}")
file(MAKE_DIRECTORY "${ROOFLINE_SUMMARY_DIR}")
# Line tables where the project's flags ask for no debug information (a -g
# of theirs, or Debug's, is kept).
get_directory_property(_roofline_before COMPILE_OPTIONS)
_roofline_line_tables(_roofline_line_tables ${_roofline_before})
add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX,CUDA>:-fpass-plugin=${ROOFLINE_PLUGIN}>"
                    ${_roofline_line_tables}
                    "$<$<COMPILE_LANGUAGE:C,CXX,CUDA>:SHELL:-mllvm -roofline-json=${ROOFLINE_SUMMARY_DIR}/>")
foreach(opt PLATFORM WARN ASSUME KERNELS)
  string(TOLOWER "${opt}" name)
  if(ROOFLINE_${opt})
    add_compile_options("$<$<COMPILE_LANGUAGE:C,CXX,CUDA>:SHELL:-mllvm -roofline-${name}=${ROOFLINE_${opt}}>")
  endif()
endforeach()
message(STATUS "roofline: static summaries of ${PROJECT_NAME} in ${ROOFLINE_SUMMARY_DIR}")
