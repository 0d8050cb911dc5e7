# Warnings are errors on Cairn's own code (not on system headers).
function(cairn_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers)
endfunction()
