"""One blueprint per screen: each takes a request, asks the service, and answers with a page (or
its parts for htmx). A page never imports another page; what two pages share lives in
``screens``, ``forms``, ``words`` or ``http``."""
