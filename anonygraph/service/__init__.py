"""``anonygraph serve``: a local HTTP service over the run layer and its store.

`create_app` builds the FastAPI app: one text anonymized per request
(`anonygraph.api.aanonymize`), batches run as the store's runs
(`anonygraph.runs.engines.batch.run_batch`), so a batch cut off by a kill is resumed
when the service starts again. `ServiceSettings` holds what the command line
chose; `check_binding` refuses a non-loopback address without a token.
"""

from anonygraph.service.app import create_app
from anonygraph.service.settings import ServiceSettings, check_binding

__all__ = ["ServiceSettings", "check_binding", "create_app"]
