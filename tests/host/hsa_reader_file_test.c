/*
 * hsa_reader_file_test.c - hsa_code_object_reader_create_from_file reads a
 * whole file through its descriptor (host only: the image has no files to
 * open this way).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tests/common/hsa_test_util.h"

TEST(hsa_reader_from_file_reads_descriptor_to_end) {
  HSA_ASSERT_OK(hsa_init());
  char path[] = "/tmp/hsa_reader_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  unlink(path);
  static char bytes[200000]; /* larger than the reader's first buffer */
  for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (char)i;
  ASSERT_EQ(write(fd, bytes, sizeof bytes), (long)sizeof bytes);
  ASSERT_EQ(lseek(fd, 0, SEEK_SET), 0);
  hsa_code_object_reader_t reader;
  HSA_ASSERT_OK(hsa_code_object_reader_create_from_file(fd, &reader));
  /* Not a code object: the loader refuses it, the reader itself is fine. */
  hsa_executable_t exec;
  HSA_ASSERT_OK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT,
                                          NULL, &exec));
  ASSERT_NE(hsa_executable_load_program_code_object(exec, reader, NULL, NULL), HSA_STATUS_SUCCESS);
  HSA_ASSERT_OK(hsa_executable_destroy(exec));
  HSA_ASSERT_OK(hsa_code_object_reader_destroy(reader));
  /* An empty file or a bad descriptor is refused. */
  ASSERT_EQ(hsa_code_object_reader_create_from_file(fd, &reader),
            HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  close(fd);
  ASSERT_EQ(hsa_code_object_reader_create_from_file(fd, &reader), HSA_STATUS_ERROR_INVALID_FILE);
  ASSERT_EQ(hsa_code_object_reader_create_from_file(0, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  HSA_ASSERT_OK(hsa_shut_down());
}
