/* empty: the preprocessor input of the AES-macro test (builds/CMakeLists.txt) */
