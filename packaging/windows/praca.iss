; Praça's Windows installer — Inno Setup 6 (https://jrsoftware.org/isinfo.php).
; Kept in UTF-8 with a byte-order mark: without it Inno Setup reads the accents as ANSI.
; Build the bundle first (docs/install-windows.md), then, from the repository's root:
;     "C:\Program Files (x86)\Inno Setup 6\ISCC.exe" /DAppVersion=0.1.0 packaging\windows\praca.iss
; The installer is written to dist\installer\praca-setup-<version>.exe.
;
; What it does: copies dist\praca\ into Program Files (or the user's own programs folder when installed without
; administrator rights), adds "Praça" to the Start menu (praca-gui.exe: the window, no console; the icon is the
; executable's own, drawn from resources\icons\praca.svg), optionally a desktop shortcut, an uninstaller in
; Settings → Apps, and — when a server is given — the PRACA_DB variable that points the desk at it.
; Silent install for many desks:
;     praca-setup-0.1.0.exe /VERYSILENT /ALLUSERS /DB=postgresql://praca@servidor:5432/praca
; The data folder (%LOCALAPPDATA%\Praca\Praca) is the user's and is never removed by the uninstaller.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define Root "..\.."

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
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir={#Root}\dist\installer
OutputBaseFilename=praca-setup-{#AppVersion}
SetupIconFile={#Root}\build\praca.ico
UninstallDisplayIcon={app}\praca-gui.exe
UninstallDisplayName=Praça
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ChangesEnvironment=yes
CloseApplications=yes

[Languages]
Name: "brazilianportuguese"; MessagesFile: "compiler:Languages\BrazilianPortuguese.isl"

[Tasks]
Name: "desktopicon"; Description: "Criar um atalho na área de trabalho"; Flags: unchecked

[Files]
Source: "{#Root}\dist\praca\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[InstallDelete]
; an upgrade replaces the previous version's files instead of mixing them
Type: filesandordirs; Name: "{app}\_internal"

[Icons]
Name: "{group}\Praça"; Filename: "{app}\praca-gui.exe"; WorkingDir: "{userdocs}"; Comment: "Comércio em espaço público"
Name: "{group}\Desinstalar o Praça"; Filename: "{uninstallexe}"
Name: "{autodesktop}\Praça"; Filename: "{app}\praca-gui.exe"; WorkingDir: "{userdocs}"; Tasks: desktopicon

[Registry]
; PRACA_DB for every user (installed as administrator) or for this user only; removed by the uninstaller
Root: HKLM; Subkey: "SYSTEM\CurrentControlSet\Control\Session Manager\Environment"; ValueType: string; ValueName: "PRACA_DB"; ValueData: "{code:DatabaseUrl}"; Flags: uninsdeletevalue; Check: HasDatabaseUrl and IsAdminInstallMode
Root: HKCU; Subkey: "Environment"; ValueType: string; ValueName: "PRACA_DB"; ValueData: "{code:DatabaseUrl}"; Flags: uninsdeletevalue; Check: HasDatabaseUrl and (not IsAdminInstallMode)

[Run]
Filename: "{app}\praca-gui.exe"; Description: "Abrir o Praça agora"; Flags: nowait postinstall skipifsilent unchecked

[Code]
var
  ServerPage: TInputQueryWizardPage;

procedure InitializeWizard;
begin
  ServerPage := CreateInputQueryPage(wpSelectTasks,
    'Banco de dados', 'Onde esta mesa guarda os dados?',
    'Deixe em branco para usar o banco embutido deste computador (uma mesa só).' + #13#10 +
    'Com várias mesas, informe o servidor PostgreSQL, por exemplo:' + #13#10 +
    'postgresql://mesa01@servidor:5432/praca (o login desta mesa, nunca o dono das tabelas)' + #13#10 +
    'A senha não vai aqui: a do login desta mesa vai em pgpass.conf (docs/install-windows.md).');
  ServerPage.Add('Endereço do banco (PRACA_DB):', False);
  ServerPage.Values[0] := ExpandConstant('{param:DB|}');
end;

function DatabaseUrl(Param: String): String;
begin
  Result := Trim(ServerPage.Values[0]);
end;

function HasDatabaseUrl: Boolean;
begin
  Result := Trim(ServerPage.Values[0]) <> '';
end;

{ The login part of a postgresql:// address (between :// and @; '' when there is none). }
function UrlUser(Url: String): String;
var
  Rest: String;
  At: Integer;
begin
  Result := '';
  Rest := Copy(Url, Pos('://', Url) + 3, Length(Url));
  At := Pos('@', Rest);
  if At > 0 then
    Result := Copy(Rest, 1, At - 1);
end;

{ A desk never gets a password in its address, nor the tables' owner's or the server administrator's login: each
  desk has a login of its own (praca pg-setup --desk-login), which can do only what the clerk logged in at it may. }
function NextButtonClick(CurPageID: Integer): Boolean;
var
  Url: String;
  User: String;
begin
  Result := True;
  if CurPageID = ServerPage.ID then
  begin
    Url := Trim(ServerPage.Values[0]);
    if (Url <> '') and (Pos('postgresql://', Url) <> 1) and (Pos('sqlite:///', Url) <> 1) then
    begin
      MsgBox('O endereço deve começar por postgresql:// (ou sqlite:/// para um arquivo).', mbError, MB_OK);
      Result := False;
    end
    else if Pos('postgresql://', Url) = 1 then
    begin
      User := Lowercase(UrlUser(Url));
      if Pos(':', User) > 0 then
      begin
        MsgBox('A senha não vai no endereço: a do login desta mesa vai em pgpass.conf (docs/install-windows.md).',
          mbError, MB_OK);
        Result := False;
      end
      else if (User = '') or (User = 'praca') or (User = 'postgres') then
      begin
        MsgBox('Informe o login desta mesa (criado no servidor com praca pg-setup --desk-login), ' +
          'nunca o dono das tabelas nem o administrador do PostgreSQL.', mbError, MB_OK);
        Result := False;
      end;
    end;
  end;
end;
