# Writes SITE_DIR/sw.js from TEMPLATE: PRECACHE lists every file of the site (except the
# service worker itself and the single-file build, which is for opening from disk), and
# VERSION is a digest of all their contents, so any changed file gives a new cache.
# Run as: cmake -DSITE_DIR=... -DTEMPLATE=.../web/sw.js -P service_worker.cmake
file(GLOB_RECURSE files RELATIVE "${SITE_DIR}" "${SITE_DIR}/*")
list(FILTER files EXCLUDE REGEX "^(sw\\.js|vramcalc-standalone\\.html|screenshots/.*)$")
list(SORT files)
set(digests "")
set(precache "\"./\"")
foreach(file IN LISTS files)
  file(SHA256 "${SITE_DIR}/${file}" digest)
  string(APPEND digests "${file}:${digest}\n")
  string(APPEND precache ", \"${file}\"")
endforeach()
string(SHA256 version "${digests}")
string(SUBSTRING "${version}" 0 16 version)
file(READ "${TEMPLATE}" text)
string(REPLACE "@VRAMCALC_VERSION@" "${version}" text "${text}")
string(REPLACE "@VRAMCALC_PRECACHE@" "${precache}" text "${text}")
file(WRITE "${SITE_DIR}/sw.js" "${text}")
