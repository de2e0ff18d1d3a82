import { Controller, Get, Injectable, Module, OnApplicationBootstrap, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { JwtAuthGuard } from '../auth/jwt-auth.guard';
import { Role, RoleName } from './role.entity';

@Injectable()
export class RolesService implements OnApplicationBootstrap {
  constructor(@InjectRepository(Role) private readonly roles: Repository<Role>) {}

  /** The roles every install has; ids are generated, so clients look them up. */
  async onApplicationBootstrap() {
    const names = Object.values(RoleName).map((name) => ({ name }));
    await this.roles.createQueryBuilder().insert().values(names).orIgnore().execute();
  }

  findAll() {
    return this.roles.find({ order: { name: 'ASC' } });
  }

  findByName(name: RoleName) {
    return this.roles.findOneByOrFail({ name });
  }

  findById(id: string) {
    return this.roles.findOneBy({ id });
  }
}

@ApiTags('Roles')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @ApiOkResponse({ type: [Role] })
  @Get()
  findAll() {
    return this.roles.findAll();
  }
}

@Module({
  imports: [TypeOrmModule.forFeature([Role])],
  controllers: [RolesController],
  providers: [RolesService],
  exports: [RolesService],
})
export class RolesModule {}
