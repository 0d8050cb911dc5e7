# cmake -P script: install, then build the consumer both ways, then run what it built.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${CAIRN_BUILD_DIR} --prefix ${prefix})
foreach(header cairn.h base.h shape.h io.h)
  if(NOT EXISTS ${prefix}/include/cairn/${header})
    message(FATAL_ERROR "cmake --install did not install include/cairn/${header}")
  endif()
endforeach()

run(${CMAKE_COMMAND} -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer-build
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=${BUILD_TYPE}
    "-DCMAKE_C_FLAGS=${EXTRA_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${EXTRA_FLAGS}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer-build)
run(${WORK_DIR}/consumer-build/consumer)
if(NOT last_output MATCHES "consumer ok")
  message(FATAL_ERROR "consumer (find_package) printed: ${last_output}")
endif()

# pkg-config route: compile the same source by hand.
file(GLOB_RECURSE pc_files ${prefix}/*/cairn.pc)
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir ${pc_file} DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pc_dir})
run(pkg-config --cflags --libs cairn)
string(STRIP "${last_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
separate_arguments(extra UNIX_COMMAND "${EXTRA_FLAGS}")
run(cc -std=c17 ${extra} ${CONSUMER_DIR}/consumer.c ${flags} -lm -o ${WORK_DIR}/consumer-pc)
run(${WORK_DIR}/consumer-pc)
if(NOT last_output MATCHES "consumer ok")
  message(FATAL_ERROR "consumer (pkg-config) printed: ${last_output}")
endif()
# The thread pool through its own pkg-config file.
run(pkg-config --cflags --libs cairn_threads)
string(STRIP "${last_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(cc -std=c17 ${extra} ${CONSUMER_DIR}/threads_consumer.c ${flags} -lm -o
    ${WORK_DIR}/threads-consumer-pc)
run(${WORK_DIR}/threads-consumer-pc)
if(NOT last_output MATCHES "threads ok")
  message(FATAL_ERROR "thread pool consumer (pkg-config) printed: ${last_output}")
endif()
message(STATUS "install test passed")
