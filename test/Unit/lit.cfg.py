# GoogleTest unit tests of the libraries (the LLVM-free ones, and the
# analysis with LLVM), run as lit tests so one
# lit summary counts everything.
import lit.formats

config.name = "Roofline-Unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.test_source_root = config.unit_test_dir
config.test_exec_root = config.unit_test_dir
