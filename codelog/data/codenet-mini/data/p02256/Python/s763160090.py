def main():
    buf,b = (int(answer) for answer in input().split())
    # answer
    while b != 0:
        # ループ
        ret = buf % b
        buf = b
        b = ret
    print(buf)
main()
