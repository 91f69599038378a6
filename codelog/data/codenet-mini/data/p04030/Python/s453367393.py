def main():
    mx = input().strip()
    m = ""
    for z in mx:
        if z == "B":
            del m[-1]
        else:
            m += z
    print(m)


if __name__ == "__main__":
    main()
