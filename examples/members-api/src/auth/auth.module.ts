import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Injectable,
  Module,
  Patch,
  Post,
  Request,
  UnauthorizedException,
  UseGuards,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { JwtModule, JwtService } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { MailService } from '../mail/mail.service';
import { RolesModule, RolesService } from '../roles/roles.module';
import { RoleName } from '../roles/role.entity';
import { UpdateProfileDto } from '../users/dto/user.dto';
import { User } from '../users/user.entity';
import { UsersModule } from '../users/users.module';
import { UsersService } from '../users/users.service';
import { LoginDto, RegisterDto } from './dto/auth.dto';
import { JwtAuthGuard } from './jwt-auth.guard';
import { JwtPayload, JwtStrategy } from './jwt.strategy';
import { passwordMatches } from './password';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly roles: RolesService,
    private readonly jwt: JwtService,
    private readonly mail: MailService,
  ) {}

  async register(dto: RegisterDto): Promise<void> {
    const role = await this.roles.findByName(RoleName.User);
    const user = await this.users.create({ ...dto, role });
    await this.mail.sendWelcome(user);
  }

  async login({ email, password }: LoginDto) {
    const account = await this.users.findForSignIn(email);
    if (!account || !(await passwordMatches(password, account.password)))
      throw new UnauthorizedException({ errors: { email: 'invalidCredentials' } });
    const payload: JwtPayload = { sub: account.id };
    return { token: await this.jwt.signAsync(payload), user: await this.users.findById(account.id) };
  }
}

@ApiTags('Auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersService,
  ) {}

  @ApiNoContentResponse()
  @Post('email/register')
  @HttpCode(HttpStatus.NO_CONTENT)
  register(@Body() dto: RegisterDto) {
    return this.auth.register(dto);
  }

  @Post('email/login')
  @HttpCode(HttpStatus.OK)
  login(@Body() dto: LoginDto) {
    return this.auth.login(dto);
  }

  @ApiBearerAuth()
  @ApiOkResponse({ type: User })
  @UseGuards(JwtAuthGuard)
  @Get('me')
  me(@Request() request: { user: User }) {
    return request.user;
  }

  @ApiBearerAuth()
  @ApiOkResponse({ type: User })
  @UseGuards(JwtAuthGuard)
  @Patch('me')
  updateMe(@Request() request: { user: User }, @Body() dto: UpdateProfileDto) {
    return this.users.update(request.user.id, dto);
  }

  @ApiBearerAuth()
  @UseGuards(JwtAuthGuard)
  @Delete('me')
  @HttpCode(HttpStatus.NO_CONTENT)
  deleteMe(@Request() request: { user: User }) {
    return this.users.softDelete(request.user.id);
  }
}

@Module({
  imports: [
    UsersModule,
    RolesModule,
    PassportModule,
    JwtModule.registerAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService) => ({
        secret: config.getOrThrow<string>('AUTH_JWT_SECRET'),
        signOptions: { expiresIn: config.getOrThrow('AUTH_JWT_TOKEN_EXPIRES_IN') },
      }),
    }),
  ],
  controllers: [AuthController],
  providers: [AuthService, JwtStrategy, MailService],
})
export class AuthModule {}
