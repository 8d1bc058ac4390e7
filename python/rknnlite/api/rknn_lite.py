"""rknn-toolkit-lite2's ``RKNNLite`` class (2.3.2) on npurt: the board-side script API, running on
any machine through librknnrt's C API. Methods return 0 / -1 (``inference``: None on failure) with an
``E <method>: <reason>`` line on stderr."""
from npurt import _npurt, session
from npurt._log import Log


class RKNNLite(session.CoreMasks):
    def __init__(self, verbose=False, verbose_file=None):
        self._log = Log(verbose, verbose_file)
        self._model = None
        self._session = None

    def _fail(self, method, error):
        self._log.e(method, str(error.args[0]) if error.args else type(error).__name__)

    def load_rknn(self, path):
        """Reads and checks a model file."""
        try:
            model = session.read_model(path)
        except Exception as e:  # the vendor's methods fail with a return value, never raise
            self._fail("load_rknn", e)
            return -1
        self._model = model
        return 0

    def init_runtime(self, target=None, device_id=None, async_mode=False, core_mask=session.NPU_CORE_AUTO):
        """Initializes the loaded model (again, if called twice) with the core mask as CPU threads."""
        try:
            if self._model is None:
                raise _npurt.Error("no model: call load_rknn first")
            if target is not None or device_id is not None:
                self._log.w_once("init_runtime", "target / device_id have no effect: npurt runs on this machine")
            if self._session is not None:
                self._session.release()
                self._session = None
            self._session = session.Session(self._model, core_mask=core_mask, async_mode=async_mode)
        except Exception as e:
            self._fail("init_runtime", e)
            return -1
        return 0

    def inference(self, inputs, data_type=None, data_format=None, inputs_pass_through=None, get_frame_id=False):
        """One run: a list of float32 arrays (None on failure); `data_type` converts the inputs first."""
        try:
            if self._session is None:
                raise _npurt.Error("the runtime is not initialized: call init_runtime first")
            outputs = self._session.inference(inputs, data_format, inputs_pass_through, data_type)
        except Exception as e:
            self._fail("inference", e)
            return None
        if get_frame_id:
            outputs.append(self._session.frames)
        return outputs

    def get_sdk_version(self):
        try:
            if self._session is None:
                raise _npurt.Error("the runtime is not initialized: call init_runtime first")
            return self._session.sdk_version()
        except Exception as e:
            self._fail("get_sdk_version", e)
            return None

    def list_devices(self):
        """No boards: npurt runs the model on this machine."""
        self._log.w_once("list_devices", "npurt has no board connection: no devices")
        return [], []

    def list_support_target_platform(self, rknn_model=None):
        """npurt runs every platform's model on this machine."""
        platforms = ["rk3562", "rk3566", "rk3568", "rk3576", "rk3588", "rv1103", "rv1106"]
        return {"support_target_platform": platforms, "filled_target_platform": platforms}

    def release(self):
        if self._session is not None:
            self._session.release()
            self._session = None
        self._model = None
        self._log.close()
