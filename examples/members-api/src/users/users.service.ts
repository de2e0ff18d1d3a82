import { Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { hashPassword } from '../auth/password';
import { FileEntity } from '../files/file.entity';
import { Role } from '../roles/role.entity';
import { CreateUserDto, EntityRefDto, QueryUsersDto, UpdateUserDto } from './dto/user.dto';
import { User } from './user.entity';

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(Role) private readonly roles: Repository<Role>,
    @InjectRepository(FileEntity) private readonly files: Repository<FileEntity>,
  ) {}

  async create(dto: CreateUserDto): Promise<User> {
    if (await this.users.exists({ where: { email: dto.email.toLowerCase() }, withDeleted: true }))
      throw new UnprocessableEntityException({ errors: { email: 'emailAlreadyExists' } });
    const user = this.users.create({
      ...dto,
      email: dto.email.toLowerCase(),
      password: await hashPassword(dto.password),
      role: await this.existing(this.roles, dto.role, 'role'),
      photo: dto.photo ? await this.existing(this.files, dto.photo, 'photo') : null,
    });
    const { id } = await this.users.save(user);
    return this.findById(id);
  }

  async findPage({ page, limit }: QueryUsersDto) {
    const data = await this.users.find({ order: { createdAt: 'DESC' }, skip: (page - 1) * limit, take: limit + 1 });
    return { data: data.slice(0, limit), hasNextPage: data.length > limit };
  }

  exportAll() {
    return this.users.find({ select: { id: true, email: true, createdAt: true }, order: { createdAt: 'ASC' } });
  }

  async findById(id: string): Promise<User> {
    const user = await this.users.findOneBy({ id });
    if (!user) throw new NotFoundException({ errors: { id: 'userNotFound' } });
    return user;
  }

  /** The account with its password hash, for signing in; soft-deleted accounts are not found. */
  findForSignIn(email: string) {
    return this.users.findOne({
      where: { email: email.toLowerCase() },
      select: { id: true, email: true, password: true },
    });
  }

  async update(id: string, dto: UpdateUserDto): Promise<User> {
    const user = await this.findById(id);
    Object.assign(user, {
      ...dto,
      ...(dto.email && { email: dto.email.toLowerCase() }),
      ...(dto.password && { password: await hashPassword(dto.password) }),
      ...(dto.role && { role: await this.existing(this.roles, dto.role, 'role') }),
      ...(dto.photo && { photo: await this.existing(this.files, dto.photo, 'photo') }),
    });
    await this.users.save(user);
    return this.findById(id);
  }

  async softDelete(id: string): Promise<void> {
    await this.findById(id);
    await this.users.softDelete(id);
  }

  private async existing<T extends { id: string }>(repository: Repository<T>, ref: EntityRefDto, field: string) {
    const found = await repository.findOneBy({ id: ref.id } as never);
    if (!found) throw new UnprocessableEntityException({ errors: { [field]: `${field}NotExists` } });
    return found;
  }
}
