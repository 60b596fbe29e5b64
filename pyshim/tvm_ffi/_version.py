"""The package version, in the fields setuptools-scm style version modules
carry (``version``, ``version_tuple``, ``commit_id``); ``tvm_ffi.__version__``
is read from here."""

version = __version__ = "0.1.16"
version_tuple = __version_tuple__ = (0, 1, 16)
# The source commit is not recorded in the build.
commit_id = __commit_id__ = None

__all__ = ["__version__", "__version_tuple__", "version", "version_tuple", "__commit_id__", "commit_id"]
