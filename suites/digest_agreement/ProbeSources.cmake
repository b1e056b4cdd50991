# The probe's sources, shared by this suite's CMakeLists.txt (system RandomX)
# and builds/probe/ (each from-source build variant).  Paths relative to this folder.
set(BG_RX_PROBE_SOURCES rx_flags.c rx_session.c rx_chain.c rx_fixture.c rx_opts.c)
set(BG_RX_DIGEST_CHECK_SOURCES digest_check.c build_matrix.c)
set(BG_RX_AES_FLAGS_SOURCES aes_flags_check.c aes_flags.c build_matrix.c)
set(BG_RX_AES_INSNS_SOURCES builds/aes_insns.c build_matrix.c)
