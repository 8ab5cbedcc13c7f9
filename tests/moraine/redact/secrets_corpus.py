"""A corpus of fake secrets, each planted in the kind of line an agent's terminal or file read shows.

Every secret is assembled at run time from a fixed prefix (split so that no scanner flags this file) and a seeded
random body of the provider's documented shape; none is real. ``rule`` names the detection rule of the shipped
ruleset (see ``moraine/redact``) that recognizes the secret, or ``moraine.*`` for the command-line and assignment
shapes the ruleset leaves to us. ``needles`` are the substrings that must never be found after ingest (a secret of
several words lists each word).
"""

from __future__ import annotations

import base64
import json
import random
import string
from dataclasses import dataclass

__all__ = ["Secret", "secrets_corpus"]

_ALNUM = string.ascii_letters + string.digits
_UPPER_DIGITS = string.ascii_uppercase + string.digits
_LOWER_DIGITS = string.ascii_lowercase + string.digits
_HEX = "0123456789abcdef"
_B64URL = _ALNUM + "-_"


@dataclass(frozen=True, slots=True)
class Secret:
    kind: str
    rule: str
    line: str  # the text planted in a trace
    needles: tuple[str, ...]  # what must not survive


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def secrets_corpus(seed: int = 17) -> list[Secret]:
    """Return the corpus (same seed, same secrets)."""
    rng = random.Random(seed)

    def rand(n: int, alphabet: str = _ALNUM) -> str:
        return "".join(rng.choice(alphabet) for _ in range(n))

    out: list[Secret] = []

    def add(kind: str, rule: str, line: str, *needles: str) -> None:
        out.append(Secret(kind, rule, line, needles))

    # -- provider tokens recognized by the ruleset ---------------------------------------------------------------
    header = _b64url(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    claims = _b64url(json.dumps({"sub": rand(12), "name": "Ada", "iat": 1700000000}).encode())
    jwt = f"{header}.{claims}.{rand(43, _B64URL)}"
    add("jwt", "betterleaks.jwt", f"export SESSION_JWT={jwt}", jwt)
    rs_header = _b64url(json.dumps({"alg": "RS256"}).encode())
    jwt2 = f"{rs_header}.{_b64url(json.dumps({'user': rand(20)}).encode())}.{rand(86, _B64URL)}"
    add("jwt", "betterleaks.jwt", f'curl https://api.example.com -H "X-Token: {jwt2}"', jwt2)
    stripe = "sk" + "_live_" + rand(24)
    add("stripe_secret", "betterleaks.stripe-access-token", f"stripe.api_key = '{stripe}'", stripe)
    stripe_r = "rk" + "_live_" + rand(24)
    add("stripe_restricted", "betterleaks.stripe-access-token", f"STRIPE_RK {stripe_r}\n", stripe_r)
    glpat = "gl" + "pat-" + rand(20, _ALNUM + "-_")
    add("gitlab_pat", "betterleaks.gitlab-pat", f"git clone https://oauth2:{glpat}@gitlab.com/x/y.git", glpat)
    npm = "np" + "m_" + rand(36)
    add("npm_token", "betterleaks.npm-access-token", f"//registry.npmjs.org/:_authToken={npm}", npm)
    hf = "h" + "f_" + rand(34, string.ascii_letters)
    add(
        "huggingface_token", "betterleaks.huggingface-access-token", f"huggingface-cli login --token {hf}", hf
    )
    gocspx = "GOC" + "SPX-" + rand(28, _ALNUM + "-_")
    add("google_oauth_secret", "moraine.assignment", f'"client_secret": "{gocspx}"', gocspx)
    sendgrid = "S" + "G." + rand(22, _ALNUM + "-_") + "." + rand(43, _ALNUM + "-_")
    add("sendgrid_key", "betterleaks.sendgrid-api-token", f"SENDGRID={sendgrid}", sendgrid)
    hook = (
        f"https://hooks.sla{'ck'}.com/services/T{rand(8, _UPPER_DIGITS)}/B{rand(8, _UPPER_DIGITS)}/{rand(24)}"
    )
    add(
        "slack_webhook",
        "betterleaks.slack-webhook-url",
        f"curl -X POST {hook} -d '{{}}'",
        hook.split("/", 3)[3],
    )
    account_key = rand(86, _ALNUM + "+/") + "=="
    add(
        "azure_storage_key",
        "betterleaks.azure-storage-account-key",
        f"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey={account_key};EndpointSuffix=core.windows.net",
        account_key,
    )
    pgp_body = "\n".join(rand(64, _ALNUM + "+/") for _ in range(6))
    pgp = f"-----BEGIN PGP PRIVATE {'KEY'} BLOCK-----\n\n{pgp_body}\n=Ab12\n-----END PGP PRIVATE {'KEY'} BLOCK-----"
    add("pgp_private_key", "betterleaks.private-key", f"cat key.asc\n{pgp}\n", *pgp_body.splitlines())
    rsa_body = "\n".join(rand(64, _ALNUM + "+/") for _ in range(5))
    rsa = f"-----BEGIN RSA PRIVATE {'KEY'}-----\n{rsa_body}\n-----END RSA PRIVATE {'KEY'}-----"
    add("rsa_private_key", "betterleaks.private-key", rsa, *rsa_body.splitlines())
    openai = "sk" + "-proj-" + rand(74, _ALNUM + "_-") + "T3Blbk" + "FJ" + rand(74, _ALNUM + "_-")
    add("openai_key", "betterleaks.openai-api-key", f"OPENAI={openai}", openai)
    anthropic = "sk" + "-ant-api03-" + rand(93, _ALNUM + "_-") + "AA"
    add("anthropic_key", "betterleaks.anthropic-api-key", f"key: {anthropic}", anthropic)
    ghp = "gh" + "p_" + rand(36)
    add(
        "github_pat", "betterleaks.github-pat", f"git remote set-url origin https://{ghp}@github.com/a/b", ghp
    )
    gho = "gh" + "o_" + rand(36)
    add("github_oauth", "betterleaks.github-oauth", f"token {gho}", gho)
    fine = "github" + "_pat_" + rand(22, _UPPER_DIGITS) + "_" + rand(59)
    add("github_fine_grained", "betterleaks.github-fine-grained-pat", f"GH={fine}", fine)
    akia = "AK" + "IA" + rand(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    add("aws_access_key", "betterleaks.aws-access-token", f"aws_access_key_id = {akia}", akia)
    aws_secret = rand(40, _ALNUM + "/+")
    add("aws_secret_key_alone", "moraine.aws-secret-alone", f"{aws_secret}\n", aws_secret)
    aws_secret2 = rand(40, _ALNUM + "/+")
    add(
        "aws_secret_key_assigned",
        "betterleaks.aws-secret-access-key",
        f"aws_secret_access_key = {aws_secret2}",
        aws_secret2,
    )
    xoxb = "xo" + f"xb-{rand(11, string.digits)}-{rand(12, string.digits)}-{rand(24)}"
    add("slack_bot_token", "betterleaks.slack-bot-token", f"SLACK_BOT_TOKEN={xoxb}", xoxb)
    xapp = "xa" + f"pp-1-A{rand(10, _UPPER_DIGITS)}-{rand(13, string.digits)}-{rand(64, _HEX)}"
    add("slack_app_token", "betterleaks.slack-app-token", f"app token {xapp}", xapp)
    aiza = "AI" + "za" + rand(35, _ALNUM + "_-")
    add("google_api_key", "betterleaks.gcp-api-key", f"?key={aiza}&q=1", aiza)
    shopify = "shp" + "at_" + rand(32, _HEX)
    add("shopify_token", "betterleaks.shopify-access-token", f"X-Shopify-Access-Token: {shopify}", shopify)
    digitalocean = "dop" + "_v1_" + rand(64, _HEX)
    add(
        "digitalocean_pat", "betterleaks.digitalocean-pat", f"doctl auth init -t {digitalocean}", digitalocean
    )
    pypi = "pypi-" + "AgEIcHlwaS5vcmc" + rand(70, _ALNUM + "-_")
    add("pypi_token", "betterleaks.pypi-upload-token", f"password = {pypi}", pypi)
    doppler = "dp" + ".pt." + rand(43, _ALNUM)
    add("doppler_token", "betterleaks.doppler-api-token", f"DOPPLER_TOKEN={doppler}", doppler)
    linear = "lin" + "_api_" + rand(40)
    add("linear_key", "betterleaks.linear-api-key", f"Authorization: {linear}", linear)
    databricks = "da" + "pi" + rand(32, _HEX)
    add("databricks_token", "betterleaks.databricks-api-token", f"DATABRICKS_TOKEN={databricks}", databricks)
    age = "AGE-SECRET" + "-KEY-1" + rand(58, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")
    add("age_secret_key", "betterleaks.age-secret-key", f"# created\n{age}\n", age)
    postman = "PM" + "AK-" + rand(24, _HEX) + "-" + rand(34, _HEX)
    add("postman_key", "betterleaks.postman-api-token", f"postman key {postman}", postman)
    grafana = "gl" + "sa_" + rand(32) + "_" + rand(8, _HEX)
    add("grafana_service_account", "betterleaks.grafana-service-account-token", f"GF={grafana}", grafana)
    vault = "hv" + "s." + rand(90, _ALNUM + "_-")
    add("vault_token", "betterleaks.vault-service-token", f"VAULT_TOKEN={vault}", vault)
    sentry = "sntr" + "ys_" + "eyJpYXQiO" + rand(30) + "LCJyZWdpb25fdXJs" + rand(30) + "_" + rand(43)
    add("sentry_token", "betterleaks.sentry-org-token", f"SENTRY_AUTH_TOKEN={sentry}", sentry)
    telegram = f"{rand(10, string.digits)}:AA{rand(33, _ALNUM + '_-')}"
    add(
        "telegram_bot_token",
        "betterleaks.telegram-bot-api-token",
        f"telegram_bot_token = {telegram}",
        telegram,
    )
    # -- command-line and assignment shapes -----------------------------------------------------------------------
    secret_key = rand(50, _ALNUM + "!@#%^*-_")
    add("django_secret_key", "moraine.assignment", f"SECRET_KEY={secret_key}", secret_key)
    stripe_env = rand(32)
    add("stripe_env_assignment", "moraine.assignment", f'STRIPE_SECRET_KEY="{stripe_env}"', stripe_env)
    basic = base64.b64encode(f"deploy:{rand(16)}".encode()).decode()
    add("basic_auth_header", "moraine.basic-auth", f"curl -H 'Authorization: Basic {basic}' https://x", basic)
    curl_pw = rand(14)
    add(
        "curl_user_password",
        "moraine.curl-user",
        f"curl -u admin:{curl_pw} https://api.example.com/v1",
        curl_pw,
    )
    flag_pw = rand(12)
    add("password_flag", "moraine.password-flag", f"pg_dump --password {flag_pw} --host db", flag_pw)
    mysql_pw = rand(12)
    add("mysql_p_flag", "moraine.mysql-p", f"mysql -u root -p{mysql_pw} -h 127.0.0.1 shop", mysql_pw)
    add(
        "passphrase_words",
        "moraine.assignment",
        'password = "correct horse battery staple"',
        "correct horse battery staple",
        "horse",
        "battery",
        "staple",
    )
    url_pw = f"{rand(6)}@{rand(6)}"
    add(
        "url_password_with_at",
        "moraine.url-password",
        f"postgres://app:{url_pw}@db.internal:5432/prod",
        url_pw,
    )
    pg_pw = rand(16)
    add("url_password", "moraine.url-password", f"redis://default:{pg_pw}@cache:6379/0", pg_pw)
    bearer = rand(40, _ALNUM + "-._~+/")
    add("bearer_token", "moraine.bearer", f"Authorization: Bearer {bearer}", bearer)
    json_pw = rand(18)
    add("json_password_field", "moraine.assignment", f'{{"db_password": "{json_pw}"}}', json_pw)
    # -- the misses of issue 31 (moraine.redact.phrases, .shapes, .encoded and the redactor's own passes) -----------
    de_pw = rand(10) + "7!"
    add("password_sentence_de", "moraine.phrase", f"Das Passwort lautet: {de_pw}", de_pw[:10])
    zh_pw = rand(10) + "9"
    add("password_sentence_zh", "moraine.phrase", f"数据库密码是{zh_pw}", zh_pw)
    ssh_pw = rand(12)
    add("sshpass_p", "moraine.command-p", f"sshpass -p {ssh_pw} ssh root@10.0.0.5", ssh_pw)
    netrc_pw = rand(16)
    add("netrc_line", "moraine.netrc", f"machine api.example.com login ci password {netrc_pw}", netrc_pw)
    bot = f"{rand(10, string.digits)}:AA{rand(33, _ALNUM + '_-')}"
    add(
        "telegram_bare",
        "moraine.telegram",
        f"curl https://api.telegram.org/bot{bot}/getMe",
        bot.split(":")[1],
    )
    oauth = "GOC" + "SPX-" + rand(28, _ALNUM + "-_")
    add("google_oauth_bare", "moraine.gocspx", f"client: {oauth}", oauth[7:])
    encoded = base64.b64encode(f"password={rand(14)}".encode()).decode()
    add("base64_assignment", "moraine.encoded", f"echo {encoded} | base64 -d", encoded)
    head, tail = rand(20), rand(16)
    add("token_split_over_lines", "moraine.split", f"token {'gh' + 'p_'}{head}\n{tail}\n", head, tail)
    cookie = rand(64, _HEX)
    add("moraine_cookie", "moraine.cookie", f"Cookie: moraine_session={cookie}", cookie)
    http_secret = rand(43, _B64URL)
    add(
        "moraine_http_secret",
        "moraine.http-secret",
        f"cat ~/.moraine/run/http-secret\n{http_secret}\n",
        http_secret,
    )
    django = rand(20, "abcdefghijklmnopqrstuvwxyz0123456789") + "&(=+" + rand(26, "!@#$%^&*(-_=+)abc0123")
    add("django_alphabet", "moraine.whole-value", f"SECRET_KEY={django}", django, django[-20:])
    return out
