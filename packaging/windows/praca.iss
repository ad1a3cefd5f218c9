; Praça's Windows installer — Inno Setup 6.3 or newer (https://jrsoftware.org/isinfo.php): the 64-bit identifier
; x64compatible, used below, arrived in 6.3, and an older compiler stops at the #error below.
; Kept in UTF-8 with a byte-order mark: without it Inno Setup reads the accents as ANSI.
; Build the bundle first (docs/install-windows.md), then, from the repository's root, sign as you compile:
;     "C:\Program Files (x86)\Inno Setup 6\ISCC.exe" /DAppVersion=0.1.0
;         "/Spraca=signtool sign /fd SHA256 /tr http://timestamp.digicert.com /td SHA256 /a $f"
;         packaging\windows\praca.iss
; (/tr: the timestamp server of the certificate's issuer, so the signatures outlive the certificate).
; The compiler signs praca.exe, praca-gui.exe, the uninstaller and the installer with that command. Without a
; certificate, /DUnsigned builds praca-setup-<version>-nao-assinado.exe, for tests only.
; The installer is written to dist\installer\.
;
; What it does: copies dist\praca\ into Program Files (or the user's own programs folder when installed without
; administrator rights), adds "Praça" to the Start menu (praca-gui.exe: the window, no console; the icon is the
; executable's own, drawn from resources\icons\praca.svg), optionally a desktop shortcut, an uninstaller in
; Settings → Apps, and asks where the desk keeps its data (a wizard page, or switches for a silent install):
;   /DBSCOPE=machine  one embedded database for every Windows user of the desk, in C:\ProgramData\Praca (PRACA_DATA)
;   /DBSCOPE=user     one embedded database for each Windows user, in their %LOCALAPPDATA%\Praca\Praca
;   /DB=postgresql://mesa01@servidor:5432/praca   the town's server, with this desk's own login (PRACA_DB)
; A bad switch in a silent install writes its reason to the /LOG file and ends with exit code 1, never a box.
; An upgrade shows the page again with what the desk has now (its PRACA_DB or PRACA_DATA) and keeps it.
; The data folders are never removed by the uninstaller.

#if VER < EncodeVer(6, 3, 0)
  #error Praça's installer needs Inno Setup 6.3 or newer (ArchitecturesAllowed=x64compatible)
#endif

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define Root "..\.."
#ifdef Unsigned
  #define SignFlag ""
  #define SetupName "praca-setup-" + AppVersion + "-nao-assinado"
#else
  #define SignFlag "signonce"
  #define SetupName "praca-setup-" + AppVersion
#endif

[Setup]
; Never change AppId: it is how a new version finds (and upgrades) the one installed.
AppId={{33DE3E15-12F9-49CF-B465-5E0F2555DB30}
AppName=Praça
AppVersion={#AppVersion}
AppVerName=Praça {#AppVersion}
AppPublisher=Praça
VersionInfoVersion={#AppVersion}
DefaultDirName={autopf}\Praça
DefaultGroupName=Praça
DisableProgramGroupPage=yes
; Per machine with administrator rights (the usual for the town hall's IT), or per user without them
PrivilegesRequired=admin
PrivilegesRequiredOverridesAllowed=dialog commandline
; Inno Setup 6.3 or newer (x64compatible: 64-bit Windows, Arm64 Windows 11 included)
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir={#Root}\dist\installer
OutputBaseFilename={#SetupName}
SetupIconFile={#Root}\build\praca.ico
UninstallDisplayIcon={app}\praca-gui.exe
UninstallDisplayName=Praça
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ChangesEnvironment=yes
CloseApplications=yes
; Nothing of the installing administrator's own profile is used: the compiler warns if it ever is
UsedUserAreasWarning=yes
#ifndef Unsigned
; The sign tool "praca" is defined on ISCC's command line (/Spraca=…, the command in this file's header): the
; installer, the uninstaller and the two executables are signed, with a timestamp
SignTool=praca
SignedUninstaller=yes
#endif

[Languages]
Name: "brazilianportuguese"; MessagesFile: "compiler:Languages\BrazilianPortuguese.isl"

[Tasks]
Name: "desktopicon"; Description: "Criar um atalho na área de trabalho"; Flags: unchecked

[Files]
Source: "{#Root}\dist\praca\praca.exe"; DestDir: "{app}"; Flags: ignoreversion {#SignFlag}
Source: "{#Root}\dist\praca\praca-gui.exe"; DestDir: "{app}"; Flags: ignoreversion {#SignFlag}
Source: "{#Root}\dist\praca\*"; Excludes: "\praca.exe,\praca-gui.exe"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[InstallDelete]
; an upgrade replaces the previous version's files instead of mixing them
Type: filesandordirs; Name: "{app}\_internal"

[Dirs]
; The desk's database shared by its Windows users: each of them reads and writes it (and the write-ahead log,
; backups and scans Praça creates in it, which inherit this grant); never removed by the uninstaller
Name: "{commonappdata}\Praca"; Permissions: users-modify; Flags: uninsneveruninstall; Check: IsMachineDatabase

[Icons]
; The working folder is the program's own, the same for every Windows user: Praça's file dialogs start in the
; user's Documents by themselves (views/save.py), whatever folder a shortcut starts in
Name: "{group}\Praça"; Filename: "{app}\praca-gui.exe"; WorkingDir: "{app}"; Comment: "Comércio em espaço público"
Name: "{group}\Desinstalar o Praça"; Filename: "{uninstallexe}"
Name: "{autodesktop}\Praça"; Filename: "{app}\praca-gui.exe"; WorkingDir: "{app}"; Tasks: desktopicon

[Registry]
; HKA is HKEY_LOCAL_MACHINE installed as administrator (every user of the desk), HKEY_CURRENT_USER otherwise;
; the variable of the choice not taken is removed, so that a change of choice on an upgrade takes effect
Root: HKA; Subkey: "{code:EnvironmentKey}"; ValueType: string; ValueName: "PRACA_DB"; ValueData: "{code:DatabaseUrl}"; Flags: uninsdeletevalue; Check: IsServerDatabase
Root: HKA; Subkey: "{code:EnvironmentKey}"; ValueType: none; ValueName: "PRACA_DB"; Flags: deletevalue; Check: not IsServerDatabase
Root: HKA; Subkey: "{code:EnvironmentKey}"; ValueType: string; ValueName: "PRACA_DATA"; ValueData: "{commonappdata}\Praca"; Flags: uninsdeletevalue; Check: IsMachineDatabase
Root: HKA; Subkey: "{code:EnvironmentKey}"; ValueType: none; ValueName: "PRACA_DATA"; Flags: deletevalue; Check: not IsMachineDatabase

[Run]
Filename: "{app}\praca-gui.exe"; Description: "Abrir o Praça agora"; Flags: nowait postinstall skipifsilent unchecked

[Code]
const
  ScopeMachine = 0;
  ScopeUser = 1;
  ScopeServer = 2;

var
  ScopePage: TInputOptionWizardPage;
  ServerPage: TInputQueryWizardPage;

{ Where the environment variables live: the machine's (installed as administrator) or the user's. }
function EnvironmentKey(Param: String): String;
begin
  if IsAdminInstallMode then
    Result := 'SYSTEM\CurrentControlSet\Control\Session Manager\Environment'
  else
    Result := 'Environment';
end;

{ What the desk has now in the variable Name (set by an earlier installer or by hand); '' when unset. }
function EnvironmentValue(Name: String): String;
begin
  Result := '';
  if not RegQueryStringValue(HKA, EnvironmentKey(''), Name, Result) then
    Result := '';
  Result := Trim(Result);
end;

{ The login part of a postgresql:// address: what comes before the @ of its server part (between :// and the
  first /, as libpq reads it); '' when there is none. }
function UrlUser(Url: String): String;
var
  Rest: String;
  At, Slash: Integer;
begin
  Result := '';
  Rest := Copy(Url, Pos('://', Url) + 3, Length(Url));
  Slash := Pos('/', Rest);
  if Slash > 0 then
    Rest := Copy(Rest, 1, Slash - 1);
  At := Pos('@', Rest);
  if At > 0 then
    Result := Copy(Rest, 1, At - 1);
end;

{ Why Url cannot be this desk's PRACA_DB ('' when it can). A desk never gets a password in its address, nor the
  tables' owner's or the server administrator's login: each desk has a login of its own (praca pg-setup
  --desk-login, issue 26), which can do only what the clerk logged in at it may. The text names no part of Url, so
  that it can go into the log. }
function DatabaseUrlProblem(Url: String): String;
var
  User: String;
begin
  Result := '';
  if Url = '' then
    Result := 'Informe o endereço do servidor, por exemplo postgresql://mesa01@servidor:5432/praca.'
  else if (Pos('postgresql://', Url) <> 1) and (Pos('sqlite:///', Url) <> 1) then
    Result := 'O endereço deve começar por postgresql:// (ou sqlite:/// para um arquivo).'
  else if Pos('postgresql://', Url) = 1 then
  begin
    User := Lowercase(UrlUser(Url));
    if (Pos('password=', Lowercase(Url)) > 0) or (Pos(':', User) > 0) then
      Result := 'A senha não vai no endereço: a do login desta mesa vai em pgpass.conf (docs/install-windows.md).'
    else if (User = '') or (User = 'praca') or (User = 'postgres') or (Pos('user=', Lowercase(Url)) > 0) then
      Result := 'Informe o login desta mesa (criado no servidor com praca pg-setup --desk-login), ' +
        'nunca o dono das tabelas nem o administrador do PostgreSQL.';
  end;
end;

{ Why the command line's /DB= and /DBSCOPE= cannot be followed ('' when they can). }
function CommandLineProblem: String;
var
  Url, Scope: String;
begin
  Result := '';
  Url := Trim(ExpandConstant('{param:DB|}'));
  Scope := Lowercase(Trim(ExpandConstant('{param:DBSCOPE|}')));
  if (Scope <> '') and (Scope <> 'machine') and (Scope <> 'user') then
    Result := '/DBSCOPE= aceita machine (um banco para todos os usuários do Windows desta mesa) ou user (um para cada).'
  else if (Url <> '') and (Scope <> '') then
    Result := '/DB= e /DBSCOPE= juntos: /DB= aponta o servidor; /DBSCOPE= escolhe o banco embutido. Use um dos dois.'
  else if (Scope = 'machine') and not IsAdminInstallMode then
    Result := '/DBSCOPE=machine precisa da instalação para todos os usuários (como administrador, /ALLUSERS).'
  else if Url <> '' then
  begin
    Result := DatabaseUrlProblem(Url);
    if Result <> '' then
      Result := '/DB=: ' + Result;
  end;
end;

{ A silent install with a bad switch stops here: the reason in the log (/LOG=FILE), exit code 1, no box — a box
  would wait for a click nobody gives, /SUPPRESSMSGBOXES or not. Interactively, it is said and the page asks. }
function InitializeSetup: Boolean;
var
  Problem: String;
begin
  Result := True;
  Problem := CommandLineProblem;
  if Problem <> '' then
  begin
    Log('Praça: ' + Problem);
    Result := not WizardSilent;
    if not WizardSilent then
      MsgBox(Problem + #13#10 + 'Escolha na página Banco de dados.', mbInformation, MB_OK);
  end;
end;

{ The choice the page starts with, and the server's address it shows: the command line's; else, on an upgrade,
  what the desk has now (the environment the previous installer, or the IT by hand, set); else a new desk's
  default — one database for the desk when installed as administrator. An installation from before this page
  kept a database for each user: an upgrade keeps it so, unless changed here. }
function InitialScope(var Url: String): Integer;
var
  Scope: String;
begin
  Url := Trim(ExpandConstant('{param:DB|}'));
  Scope := Lowercase(Trim(ExpandConstant('{param:DBSCOPE|}')));
  if Url <> '' then
    Result := ScopeServer
  else if Scope = 'machine' then
    Result := ScopeMachine
  else if Scope = 'user' then
    Result := ScopeUser
  else
  begin
    Url := EnvironmentValue('PRACA_DB');
    if Url <> '' then
      Result := ScopeServer
    else if EnvironmentValue('PRACA_DATA') <> '' then
      Result := ScopeMachine
    else if WizardForm.PrevAppDir <> '' then
      Result := ScopeUser
    else if IsAdminInstallMode then
      Result := ScopeMachine
    else
      Result := ScopeUser;
    if Url = '' then
      Url := GetPreviousData('DbUrl', '');
  end;
  if (Result = ScopeMachine) and not IsAdminInstallMode then
    Result := ScopeUser;
end;

procedure InitializeWizard;
var
  Url: String;
begin
  ScopePage := CreateInputOptionPage(wpSelectTasks,
    'Banco de dados', 'Onde esta mesa guarda os dados?',
    'Para esta mesa: todos os usuários do Windows deste computador usam o mesmo banco,' + #13#10 +
    'na pasta ' + ExpandConstant('{commonappdata}') + '\Praca; cada um entra com o seu usuário do Praça.' + #13#10 +
    'Para cada usuário: cada um tem o seu banco e vê só o que ele mesmo registrou.' + #13#10 +
    'Servidor: várias mesas usam o banco PostgreSQL da prefeitura.' + #13#10 +
    'O guia de instalação (docs/install-windows.md) explica cada escolha.',
    True, False);
  ScopePage.Add('Um banco para esta mesa, o mesmo para todos os usuários do Windows');
  ScopePage.Add('Um banco para cada usuário do Windows');
  ScopePage.Add('O servidor PostgreSQL da prefeitura');
  if not IsAdminInstallMode then
    ScopePage.CheckListBox.ItemEnabled[ScopeMachine] := False;

  ServerPage := CreateInputQueryPage(ScopePage.ID,
    'Banco de dados', 'Qual é o servidor?',
    'Informe o endereço com o login desta mesa, por exemplo:' + #13#10 +
    'postgresql://mesa01@servidor:5432/praca' + #13#10 +
    'O login é o desta mesa, nunca o dono das tabelas. A senha não vai aqui:' + #13#10 +
    'a do login desta mesa vai em pgpass.conf (docs/install-windows.md, seção 5).');
  ServerPage.Add('Endereço do banco (PRACA_DB):', False);

  ScopePage.SelectedValueIndex := InitialScope(Url);
  ServerPage.Values[0] := Url;
end;

function IsServerDatabase: Boolean;
begin
  Result := ScopePage.SelectedValueIndex = ScopeServer;
end;

function IsMachineDatabase: Boolean;
begin
  Result := IsAdminInstallMode and (ScopePage.SelectedValueIndex = ScopeMachine);
end;

function DatabaseUrl(Param: String): String;
begin
  Result := Trim(ServerPage.Values[0]);
end;

function ShouldSkipPage(PageID: Integer): Boolean;
begin
  Result := (PageID = ServerPage.ID) and not IsServerDatabase;
end;

function NextButtonClick(CurPageID: Integer): Boolean;
var
  Problem: String;
begin
  Result := True;
  if (CurPageID = ServerPage.ID) and IsServerDatabase then
  begin
    Problem := DatabaseUrlProblem(DatabaseUrl(''));
    if Problem <> '' then
    begin
      Log('Praça: /DB=: ' + Problem);
      if not WizardSilent then
        MsgBox(Problem, mbError, MB_OK);
      Result := False;
    end;
  end;
end;

{ The server's address is kept for the next installer (GetPreviousData above): an upgrade that finds no PRACA_DB
  in the environment still shows the address this desk had, should the IT go back to the server. }
procedure RegisterPreviousData(PreviousDataKey: Integer);
begin
  SetPreviousData(PreviousDataKey, 'DbUrl', DatabaseUrl(''));
end;
