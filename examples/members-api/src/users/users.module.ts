import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Module,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { TypeOrmModule } from '@nestjs/typeorm';
import { JwtAuthGuard } from '../auth/jwt-auth.guard';
import { FileEntity } from '../files/file.entity';
import { Role } from '../roles/role.entity';
import { CreateUserDto, QueryUsersDto, UpdateUserDto } from './dto/user.dto';
import { ExportLimitGuard } from './export-limit.guard';
import { User } from './user.entity';
import { UsersService } from './users.service';

@ApiTags('Users')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @ApiCreatedResponse({ type: User })
  @Post()
  create(@Body() dto: CreateUserDto) {
    return this.users.create(dto);
  }

  @Get()
  findPage(@Query() query: QueryUsersDto) {
    return this.users.findPage(query);
  }

  @Get('export')
  @UseGuards(ExportLimitGuard)
  exportAll() {
    return this.users.exportAll();
  }

  @ApiOkResponse({ type: User })
  @Get(':id')
  findOne(@Param('id', ParseUUIDPipe) id: string) {
    return this.users.findById(id);
  }

  @ApiOkResponse({ type: User })
  @Patch(':id')
  update(@Param('id', ParseUUIDPipe) id: string, @Body() dto: UpdateUserDto) {
    return this.users.update(id, dto);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  remove(@Param('id', ParseUUIDPipe) id: string) {
    return this.users.softDelete(id);
  }
}

@Module({
  imports: [TypeOrmModule.forFeature([User, Role, FileEntity])],
  controllers: [UsersController],
  providers: [UsersService],
  exports: [UsersService],
})
export class UsersModule {}
