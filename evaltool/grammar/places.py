"""Where the capacity stands, when no cell is labelled region: a cloud region's id
("europe-north1", "us-east-1") anywhere in the offer, or the place a sentence puts the data
centre in ("Data center: São Paulo (Tamboré)", "i vores datacenter i København", "campus
Sines", "Columbus, Ohio campus", "in our Tallinn (Ülemiste) hall").

Read at text priority, and said (the caller warns): a sentence may name another site.
"""

from __future__ import annotations

import functools
import re

# Cloud region ids: "us-east-1", "eu-west-2", "europe-north1", "asia-northeast1", "ap-south-1".
_CLOUD_REGION_RE = re.compile(
    r"(?<![\w-])((?:us|eu|europe|asia|ap|me|sa|af|ca|il|mx|northamerica|southamerica|"
    r"australia)-(?:north|south|east|west|central|northeast|northwest|southeast|southwest|"
    r"[a-z]+)-?\d{1,2})(?![\w-])")
_SITE_WORDS = (r"data\s*cent(?:er|re)|datacent(?:er|re|rum)|datasenter|rechenzentrum|"
               r"centro\s+de\s+(?:datos|dados|processamento\s+de\s+dados)|centro\s+dati|"
               r"centre\s+de\s+donn[ée]es|serwerowni\w*|datové\s+centrum|datacentrum|"
               r"campus|hall|facility|site")
_PLACE = r"([A-ZÀ-ÖØ-Þ][\w'’-]+(?:,?\s+[A-ZÀ-ÖØ-Þ][\w'’-]+){0,2})"
# "Data center: São Paulo", "datacenter i København", "campus Sines", "hosted in our
# Frankfurt data centre" (the place after the word, or before it).
_AFTER_RE = re.compile(rf"\b(?i:{_SITE_WORDS})(?:\s*:\s*|\s+(?i:in|i|em|en|de|di|at|im|w|v|na)"
                       rf"\s+(?i:the\s+|our\s+)?|\s+){_PLACE}")
_BEFORE_RE = re.compile(rf"\b(?i:in|at|of|i|em|en|im|w|v)\s+(?i:our|vores|vårt|nosso|unserem|notre|"
                        rf"nuestro|nostro|naszym)?\s*{_PLACE}(?:\s*\([^()]{{1,30}}\))?\s+"
                        rf"(?i:{_SITE_WORDS})\b")
_CASED_BEFORE_RE = re.compile(rf"(?:^|[|·—–-]\s+){_PLACE}\s+(?i:{_SITE_WORDS})\b")
_NOT_PLACES = re.compile(r"^(?:the|our|a|an|your|this|that|tier|hall|site|data|de|di|na|"
                         r"NVIDIA|AMD|Intel|HGX|DGX|GPU|GPUs|Lustre|WEKA|VAST|DDN|Slurm)\b",
                         re.I)


_COMPANY_RE = re.compile(r"\b(?:GmbH|AG|Inc|Ltd|LLC|Limited|Corp|S\.?A|A/S|ApS|AB|AS|B\.?V|N\.?V|"
                         r"Oy|Oyj|SE|SAS|SARL|Srl|S\.?p\.?A|S\.?L|sp|s\.r\.o|a\.s|d\.o\.o|Lda|Ltda|Kft|Zrt|"
                         r"plc)(?!\w)")


@functools.lru_cache(maxsize=4096)  # the same texts recur in every option
def region_in_text(text: str) -> tuple[str, str] | None:
    """(the region, how it was found) a text states outside a region label, or None."""
    if len(text) > 2000:
        return None  # a contract's page, not a sentence about the site
    cloud = _CLOUD_REGION_RE.search(text)
    if cloud is not None:
        return cloud.group(1), "a cloud region's id"
    for pattern in (_AFTER_RE, _BEFORE_RE, _CASED_BEFORE_RE):
        for match in pattern.finditer(text):
            place = match.group(1).strip(" ,")
            first = place.split()[0]
            if _NOT_PLACES.match(place) or not first[:1].isupper() or re.search(r"\d", place) \
                    or _COMPANY_RE.search(f"{place} {text[match.end():match.end() + 8]}"):
                continue  # "Rechenzentrum Nordlicht GmbH" names a company, not a place
            return place, "the place a sentence puts the data centre in"
    return None


# "Sydney (SYD1)", "Frankfurt (FRA-2)": a place named with its data centre's site code.
_SITE_CODE_RE = re.compile(r"^[A-ZÀ-ÖØ-Þ][\w'’.-]+(?:\s+[A-ZÀ-ÖØ-Þ][\w'’.-]+){0,2}\s*"
                           r"\(\s*[A-Z]{2,5}-?\d{1,2}[a-z]?\s*\)$")


def names_a_site(text: str) -> bool:
    """Whether a whole heading names a site: a place with its site code, or a cloud
    region's id ("us-east-1")."""
    text = text.strip()
    return bool(_SITE_CODE_RE.match(text) or _CLOUD_REGION_RE.fullmatch(text))


def cloud_region_id(text: str) -> str | None:
    """The cloud region's id a text names ("ca-east-1", "europe-north1"), or None."""
    found = _CLOUD_REGION_RE.search(text)
    return found.group(1) if found else None
