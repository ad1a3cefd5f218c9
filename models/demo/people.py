"""The demo's town and people: its seed, names, streets and trades, and the generators of CPF, CNPJ,
names, phones, addresses and e-mails the demo (and the benchmarks) draw from."""

from __future__ import annotations

import random
import string

from models.base.br import cnpj_check_digits, cpf_check_digits
from models.demo.towns import Town

DEMO_MUNICIPALITY = "Olímpia"
DEMO_STATE = "SP"
SEED = 20260324

FIRST_NAMES_F = [
    "Maria",
    "Ana",
    "Francisca",
    "Antônia",
    "Adriana",
    "Juliana",
    "Márcia",
    "Fernanda",
    "Patrícia",
    "Aline",
    "Sandra",
    "Camila",
    "Luciana",
    "Cláudia",
    "Vanessa",
    "Simone",
    "Rosângela",
    "Tatiane",
    "Débora",
    "Jéssica",
    "Cristiane",
    "Raimunda",
    "Josefa",
    "Eliane",
]
FIRST_NAMES_M = [
    "José",
    "João",
    "Antônio",
    "Francisco",
    "Carlos",
    "Paulo",
    "Pedro",
    "Lucas",
    "Luiz",
    "Marcos",
    "Luís",
    "Gabriel",
    "Rafael",
    "Daniel",
    "Marcelo",
    "Bruno",
    "Eduardo",
    "Felipe",
    "Raimundo",
    "Rodrigo",
    "Sebastião",
    "Anderson",
    "Reinaldo",
    "Wellington",
]
SURNAMES = [
    "Silva",
    "Santos",
    "Oliveira",
    "Souza",
    "Rodrigues",
    "Ferreira",
    "Alves",
    "Pereira",
    "Lima",
    "Gomes",
    "Costa",
    "Ribeiro",
    "Martins",
    "Carvalho",
    "Almeida",
    "Lopes",
    "Soares",
    "Fernandes",
    "Vieira",
    "Barbosa",
    "Rocha",
    "Dias",
    "Nascimento",
    "Andrade",
    "Moreira",
    "Nunes",
    "Marques",
    "Machado",
    "Mendes",
    "Freitas",
    "Cardoso",
    "Ramos",
    "Gonçalves",
    "Santana",
    "Teixeira",
    "Bortolotto",
    "Zanetti",
    "Yamamoto",
    "Nakamura",
    "Haddad",
]
STREETS = [
    "Rua Bernardino de Campos",
    "Rua São João",
    "Rua Coronel Francisco Ribeiro",
    "Avenida Aurora Forti Neves",
    "Rua Marechal Deodoro",
    "Rua Treze de Maio",
    "Rua Engenheiro Antônio Prado",
    "Rua Síria",
    "Avenida Waldemar Lopes Ferraz",
    "Rua David de Oliveira",
    "Rua Nove de Julho",
    "Rua Cajobi",
    "Rua Dr. Antônio Olímpio",
    "Rua Santos Dumont",
    "Avenida Pref. Wilquem Manoel Neves",
]
DISTRICTS = [
    "Centro",
    "Jardim Santa Ifigênia",
    "Vila Hípica",
    "Jardim Glória",
    "Jardim Alvorada",
    "Parque São José",
    "Jardim Santa Efigênia",
    "Cohab IV",
    "Jardim Tropical",
    "Vila Ipiranga",
]
TRADES = [
    ("Pastelaria", "Pastéis"),
    ("Lanches", "Lanches"),
    ("Doces", "Doces Caseiros"),
    ("Pipoca", "Pipocas"),
    ("Churros", "Churros"),
    ("Açaí", "Açaí e Sorvetes"),
    ("Espetinhos", "Churrasquinho"),
    ("Caldo de Cana", "Garapa"),
    ("Artesanato", "Arte e Cultura"),
    ("Hortifruti", "Verduras e Legumes"),
    ("Tapiocaria", "Tapiocas"),
    ("Crepes", "Crepes"),
]


def demo_cpf(rng: random.Random) -> str:
    while True:
        base = "".join(rng.choice(string.digits) for _ in range(9))
        if len(set(base)) > 1:
            return base + cpf_check_digits(base)


def demo_cnpj(rng: random.Random, alphanumeric: bool) -> str:
    alphabet = string.digits + string.ascii_uppercase if alphanumeric else string.digits
    while True:
        root = "".join(rng.choice(alphabet) for _ in range(8))
        if alphanumeric and root.isdigit():
            continue
        base = root + "0001"
        return base + cnpj_check_digits(base)


def demo_name(rng: random.Random) -> str:
    first = rng.choice(FIRST_NAMES_F if rng.random() < 0.5 else FIRST_NAMES_M)
    middle = rng.sample(SURNAMES, k=rng.choice([1, 2]))
    return " ".join([first, *middle, rng.choice(SURNAMES)])


def demo_phone(rng: random.Random, place: Town | None = None) -> str:
    """A mobile number of ``place``'s area code (the default demo's: Olímpia's)."""
    area = place.area_code if place is not None else "17"
    return f"({area}) 9{rng.randint(8000, 9999)}-{rng.randint(0, 9999):04d}"


def demo_address(rng: random.Random, place: Town | None = None) -> dict:
    """An address at ``place``'s streets (the default demo's: Olímpia's); the same draws whatever the town."""
    streets, districts = (place.streets, place.districts) if place is not None else (STREETS, DISTRICTS)
    city, state = (place.municipality, place.state) if place is not None else (DEMO_MUNICIPALITY, DEMO_STATE)
    prefix = place.zip_prefix if place is not None else "1540"
    return {
        "street": rng.choice(streets),
        "number": str(rng.randint(10, 2400)),
        "district": rng.choice(districts),
        "city": city,
        "state": state,
        "zip_code": f"{prefix}{rng.randint(0, 9)}{rng.randint(0, 999):03d}",
    }


def demo_email(name: str, rng: random.Random) -> str:
    import unicodedata

    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower().split()
    number = rng.randint(1, 99)
    host = rng.choice(["gmail.com", "hotmail.com", "uol.com.br", "yahoo.com.br"])
    return f"{plain[0]}.{plain[-1]}{number}@{host}"


def demo_rg(rng: random.Random) -> str:
    """An RG as São Paulo numbers it (its digits drawn in the order they are written)."""
    return f"{rng.randint(10, 59)}.{rng.randint(100, 999)}.{rng.randint(100, 999)}-{rng.choice('0123456789X')}"
