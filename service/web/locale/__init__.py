"""The web page's gettext catalogs (domain ``westmarch_web``), one folder a language: see ``service/web/i18n.py``."""
