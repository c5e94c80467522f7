# The site's esbuild steps, when esbuild is installed (`npm ci`): the single file
# (standalone.mjs), then the bundled and minified page (bundle.mjs). Without esbuild the site
# still builds, unbundled and without the single file, with a warning.
# Run as: cmake -DNODE=... -DSOURCE_DIR=... -DSITE_DIR=... -P esbuild.cmake
if(EXISTS "${SOURCE_DIR}/node_modules/esbuild/package.json")
  foreach(step IN ITEMS standalone bundle)
    execute_process(
      COMMAND "${NODE}" "${SOURCE_DIR}/web/tools/${step}.mjs" "${SITE_DIR}"
      WORKING_DIRECTORY "${SOURCE_DIR}"
      RESULT_VARIABLE result)
    if(NOT result EQUAL 0)
      message(FATAL_ERROR "web/tools/${step}.mjs failed")
    endif()
  endforeach()
else()
  message(WARNING "vramcalc-standalone.html and the bundled page skipped: run `npm ci` to install esbuild")
endif()
