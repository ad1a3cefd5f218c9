"""The fields of an import: which Praça field a column may hold (with the pt-BR names it is guessed from), the
format of a saved mapping, the limits of a file.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass

from models.base.errors import UserError

MAPPING_FORMAT = "praca-import-mapping"


MAPPING_VERSION = 1


EXCEL_EPOCH = _dt.date(1899, 12, 30)  # serial 1 = 31/12/1899 in Excel's 1900 system (its 29/02/1900 skipped)


MAX_ROWS = 100_000


@dataclass(frozen=True)
class ImportField:
    key: str
    label: str
    group: str  # "vendor" | "permit"
    aliases: tuple[str, ...]
    hint: str = ""


FIELDS: tuple[ImportField, ...] = (
    ImportField(
        "name",
        "Nome",
        "vendor",
        (
            "nome",
            "nome completo",
            "ambulante",
            "permissionario",
            "titular",
            "vendedor",
            "nome do ambulante",
            "nome do titular",
            "nome do permissionario",
            "feirante",
            "nome razao social",
            "requerente",
        ),
    ),
    ImportField("legal_name", "Razão social", "vendor", ("razao social", "empresa", "nome empresarial")),
    ImportField("cpf", "CPF", "vendor", ("cpf", "cpf do titular", "n cpf", "no cpf")),
    ImportField("cnpj", "CNPJ", "vendor", ("cnpj", "n cnpj", "no cnpj")),
    ImportField(
        "cpf_cnpj",
        "CPF ou CNPJ",
        "vendor",
        ("cpf cnpj", "cnpj cpf", "cpf ou cnpj", "documento", "cpf cnpj do titular", "doc"),
    ),
    ImportField("rg", "RG", "vendor", ("rg", "identidade", "carteira de identidade", "rg numero", "n rg", "no rg")),
    ImportField(
        "birth_date",
        "Data de nascimento",
        "vendor",
        ("data de nascimento", "nascimento", "dt nascimento", "data nasc", "dt nasc", "data de nasc", "nasc"),
        "dd/mm/aaaa",
    ),
    ImportField(
        "street", "Logradouro", "vendor", ("endereco", "logradouro", "rua", "endereco residencial", "end", "avenida")
    ),
    ImportField("number", "Número", "vendor", ("numero", "n", "no", "num", "nro", "numero da casa")),
    ImportField("district", "Bairro", "vendor", ("bairro",)),
    ImportField("city", "Cidade", "vendor", ("cidade", "municipio")),
    ImportField("state", "UF", "vendor", ("uf", "estado")),
    ImportField("zip_code", "CEP", "vendor", ("cep",)),
    ImportField(
        "phone", "Telefone", "vendor", ("telefone", "celular", "fone", "tel", "contato", "whatsapp", "telefone celular")
    ),
    ImportField("email", "E-mail", "vendor", ("e mail", "email", "correio eletronico")),
    ImportField("trade_name", "Nome fantasia", "vendor", ("nome fantasia", "fantasia")),
    ImportField(
        "municipal_registration",
        "Inscrição municipal",
        "vendor",
        ("inscricao municipal", "im", "cadastro municipal", "insc municipal", "inscr municipal"),
    ),
    ImportField("mei", "MEI", "vendor", ("mei", "e mei", "microempreendedor individual"), "sim/não"),
    ImportField("regime", "Regime", "permit", ("regime", "ato", "lei"), "id do regime"),
    ImportField(
        "permit_kind",
        "Tipo de permissão",
        "permit",
        ("tipo de permissao", "tipo", "modalidade", "tipo de licenca", "categoria", "tipo de alvara"),
    ),
    ImportField(
        "site", "Local", "permit", ("local", "ponto", "feira", "localizacao", "endereco do ponto", "local de trabalho")
    ),
    ImportField(
        "line",
        "Ramo",
        "permit",
        ("ramo", "atividade", "produto", "produtos", "ramo de atividade", "mercadoria", "mercadorias"),
    ),
    ImportField("section", "Seção", "permit", ("secao", "setor")),
    ImportField("front", "Frente (m)", "permit", ("frente", "testada", "frente m", "largura"), "metros"),
    ImportField("depth", "Profundidade (m)", "permit", ("profundidade", "fundo", "profundidade m"), "metros"),
    ImportField(
        "valid_from",
        "Válida desde",
        "permit",
        (
            "inicio",
            "valido de",
            "valida de",
            "validade inicial",
            "inicio da validade",
            "data de emissao",
            "emissao",
            "vigencia inicial",
            "desde",
            "inicio da vigencia",
            "data de inicio",
        ),
        "dd/mm/aaaa",
    ),
    ImportField(
        "valid_until",
        "Válida até",
        "permit",
        (
            "validade",
            "valido ate",
            "valida ate",
            "vencimento",
            "fim",
            "fim da validade",
            "vigencia final",
            "data de validade",
            "fim da vigencia",
            "data de vencimento",
        ),
        "dd/mm/aaaa",
    ),
    ImportField(
        "previous_number",
        "Número anterior",
        "permit",
        (
            "numero anterior",
            "alvara",
            "n do alvara",
            "no do alvara",
            "numero do alvara",
            "n alvara",
            "no alvara",
            "licenca",
            "numero da licenca",
            "n da licenca",
            "permissao",
            "numero da permissao",
            "n da permissao",
            "termo",
            "tpu",
            "credencial",
        ),
    ),
)


FIELD = {f.key: f for f in FIELDS}


PERMIT_FIELDS = tuple(f.key for f in FIELDS if f.group == "permit")


class ImportCancelled(UserError):  # noqa: N818 - a public name the import dialog and the tests use
    def __init__(self):
        super().__init__("Importação cancelada: nada foi gravado.")
