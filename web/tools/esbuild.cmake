# Builds SITE_DIR/vramcalc-standalone.html with web/tools/standalone.mjs when esbuild is
# installed (`npm ci`); without it the rest of the site still builds, with a warning.
# Run as: cmake -DNODE=... -DSOURCE_DIR=... -DSITE_DIR=... -P standalone.cmake
if(EXISTS "${SOURCE_DIR}/node_modules/esbuild/package.json")
  execute_process(
    COMMAND "${NODE}" "${SOURCE_DIR}/web/tools/standalone.mjs" "${SITE_DIR}"
    WORKING_DIRECTORY "${SOURCE_DIR}"
    RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "vramcalc-standalone.html could not be built")
  endif()
else()
  message(WARNING "vramcalc-standalone.html skipped: run `npm ci` to install esbuild")
endif()
